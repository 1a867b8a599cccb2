import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { Args, BootstrapError, Injectable, McpFactory, McpModule, Module, Tool, type JsonSchema, type SchemaRefs } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { inlineRefs } from '../../lib/schema';

class Category {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Category) sub?: Category[];
}

class Catalog {
  @IsString() title!: string;
  @ValidateNested() @Type(() => Category) top!: Category;
}

/** A raw schema with its own $defs, as an author (or an OpenAPI document) writes it. */
const RAW_INPUT: JsonSchema = {
  type: 'object',
  properties: { from: { $ref: '#/$defs/Point', description: 'Start' }, to: { $ref: '#/$defs/Point' } },
  required: ['from', 'to'],
  $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
};

@Injectable()
class SchemaTools {
  @Tool()
  catalog(@Args() args: Catalog): string {
    return args.top.name;
  }

  @Tool({
    inputSchema: RAW_INPUT,
    outputSchema: { type: 'object', properties: { length: { $ref: '#/$defs/Length' } }, $defs: { Length: { type: 'number', minimum: 0 } } },
  })
  distance(@Args() args: { from: { x: number; y: number }; to: { x: number; y: number } }) {
    return { length: Math.hypot(args.to.x - args.from.x, args.to.y - args.from.y) };
  }
}

function schemaModule(schemaRefs?: SchemaRefs) {
  @Module({ imports: [McpModule.forRoot({ name: 'schemas', version: '1.0.0', ...(schemaRefs ? { schemaRefs } : {}) })], providers: [SchemaTools] })
  class Schemas {}
  return Schemas;
}

/** Category inlined `levels` times, the innermost's `sub` items any value. */
function category(levels: number): object {
  let schema: object = {};
  for (let i = 0; i < levels; i++) {
    schema = { type: 'object', properties: { name: { type: 'string' }, sub: { type: 'array', items: schema } }, required: ['name'], additionalProperties: false };
  }
  return schema;
}

const POINT = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] };

describe.each(['2025-11-25', '2026-07-28'] as const)('advertised schemas without $ref (protocol %s)', (protocolVersion) => {
  it('inlines recursive DTOs (three levels inside themselves, then any value) and raw schemas’ $defs, in input and output schemas, valid 2020-12', async () => {
    const client = await createTestClient(schemaModule(), { protocolVersion });
    try {
      const { tools } = await client.listTools();
      expect(JSON.stringify(tools)).not.toMatch(/"\$ref"|"\$defs"/);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.catalog.inputSchema).toEqual({
        type: 'object',
        properties: { title: { type: 'string' }, top: category(4) },
        required: ['title', 'top'],
        additionalProperties: false,
      });
      // A $ref with an annotation beside it: the annotation is laid over the target.
      expect(byName.distance.inputSchema).toEqual({ type: 'object', properties: { from: { ...POINT, description: 'Start' }, to: POINT }, required: ['from', 'to'] });
      expect(byName.distance.outputSchema).toEqual({ type: 'object', properties: { length: { type: 'number', minimum: 0 } } });
      const ajv = new Ajv2020({ strict: true });
      for (const tool of tools) for (const schema of [tool.inputSchema, tool.outputSchema].filter(Boolean)) expect(ajv.validateSchema(schema as object)).toBe(true);

      // Validation keeps the full schema: deeper than the advertised levels, a bad value is still refused.
      let deep: Record<string, unknown> = { sub: [] };
      for (let i = 0; i < 6; i++) deep = { name: `level ${i}`, sub: [deep] };
      const refused = await client.callTool({ name: 'catalog', arguments: { title: 'c', top: deep } });
      expect(refused).toMatchObject({ isError: true });
      expect((refused.content as { text: string }[])[0].text).toMatch(/^Invalid arguments for tool catalog: top\.sub\[0\]\.sub\[0\]\.sub\[0\]\.sub\[0\]\.sub\[0\]\.sub\[0\]\.name: is required/);
      expect(await client.callTool({ name: 'distance', arguments: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } } })).toMatchObject({ structuredContent: { length: 5 } });
    } finally {
      await client.close();
    }
  });
});

describe('schemaRefs', () => {
  it("'keep' advertises $defs and $ref as built; recursionDepth sets how deep recursive types go", async () => {
    const kept = await createTestClient(schemaModule('keep'));
    const shallow = await createTestClient(schemaModule({ recursionDepth: 1 }));
    try {
      const catalog = (await kept.listTools()).tools.find((t) => t.name === 'catalog')!;
      expect(catalog.inputSchema).toMatchObject({ properties: { top: { $ref: '#/$defs/Category' } }, $defs: { Category: { type: 'object' } } });
      expect((await kept.listTools()).tools.find((t) => t.name === 'distance')!.inputSchema).toEqual(RAW_INPUT);
      expect((await shallow.listTools()).tools.find((t) => t.name === 'catalog')!.inputSchema).toMatchObject({ properties: { top: category(2) } });
    } finally {
      await kept.close();
      await shallow.close();
    }
  });

  it('fails the bootstrap naming the tool and the $ref that points nowhere, and refuses a bad option', async () => {
    @Injectable()
    class Broken {
      @Tool({ inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } })
      remote(@Args() args: object): object {
        return args;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' })], providers: [Broken] })
    class App {}
    const error = (await McpFactory.create(App).catch((e: unknown) => e)) as BootstrapError;
    expect(error).toBeInstanceOf(BootstrapError);
    expect(error.code).toBe('UNRESOLVABLE_SCHEMA_REF');
    expect(error.message).toBe(
      "Cannot build tool 'remote' (Broken.remote): its input schema cannot be sent without references: $ref 'https://example.com/a.json' points outside the schema.\n" +
        "Fix: define what 'https://example.com/a.json' names under the schema's own $defs, or keep references in advertised schemas with McpModule.forRoot({ schemaRefs: 'keep' }).",
    );
    await expect(McpFactory.create(schemaModule({ recursionDepth: -1 }))).rejects.toThrow(/Cannot use McpModule\.forRoot\(\{ schemaRefs: \{"recursionDepth":-1\} \}\)[\s\S]*Fix:/);
  });
});

describe('inlineRefs', () => {
  it('keeps the exact meaning of a $ref with other keywords beside it, and follows escaped JSON pointers', () => {
    const schema = {
      properties: { a: { $ref: '#/$defs/a~1b', minimum: 1 }, b: { $ref: '#/properties/c' }, c: { type: 'string' } },
      $defs: { 'a/b': { type: 'integer' } },
    };
    expect(inlineRefs(schema)).toEqual({ schema: { properties: { a: { minimum: 1, allOf: [{ type: 'integer' }] }, b: { type: 'string' }, c: { type: 'string' } } } });
  });

  it('says why a reference cannot be inlined: an anchor that is not there, another document, a $dynamicRef, a pointer to nothing, a web too large', () => {
    expect(inlineRefs({ $ref: '#node' })).toEqual({ problem: "$ref '#node' names no $anchor of the schema", ref: '#node' });
    expect(inlineRefs({ properties: { a: { $ref: '#point' } }, $defs: { p: { $anchor: 'point', type: 'object' } } })).toEqual({ schema: { properties: { a: { type: 'object' } } } });
    expect(inlineRefs({ items: { $ref: 'other.json#/x' } })).toEqual({ problem: "$ref 'other.json#/x' points outside the schema", ref: 'other.json#/x' });
    expect(inlineRefs({ $dynamicRef: '#meta' })).toMatchObject({ problem: "$dynamicRef '#meta' cannot be inlined" });
    expect(inlineRefs({ properties: { a: { $ref: '#/$defs/missing' } } })).toMatchObject({ problem: "$ref '#/$defs/missing' points to nothing in the schema" });
    // Ten definitions each naming the next twice: 2^10 copies at the bottom, beyond any useful schema.
    const $defs = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`d${i}`, i === 13 ? { type: 'string' } : { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] }]));
    expect(inlineRefs({ $ref: '#/$defs/d0', $defs })).toMatchObject({ problem: expect.stringMatching(/more than \d+ schema nodes/) });
  });

  it('returns a schema without references as it is, and treats $ref-named data as data', () => {
    const plain = { type: 'object', properties: { $ref: { type: 'string' } }, default: { $ref: 'not a reference' } };
    const inlined = inlineRefs(plain);
    expect('schema' in inlined && inlined.schema).toBe(plain);
  });
});
