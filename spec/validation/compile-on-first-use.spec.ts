import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Args, BootstrapError, Injectable, McpFactory, McpModule, Module, Param, Prompt, Tool, type McpModuleOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

/** `compileValidators: 'onFirstUse'`: nothing compiled at bootstrap, every answer the same as with validators compiled at start. */

class Author {
  @IsString() @Length(1, 40) name!: string;
  @IsInt() @Min(1000) born!: number;
}

class BookInput {
  @IsString() @Length(1, 80) title!: string;
  @IsInt() @Min(1) @Max(5000) pages!: number;
  @IsIn(['paper', 'ebook']) format!: string;
  @IsOptional() @IsString() subtitle?: string;
  @ValidateNested({ each: true }) @Type(() => Author) @ArrayMaxSize(5) authors!: Author[];
}

class Report {
  @IsInt() count!: number;
}

@Injectable()
class Tools {
  @Tool({ description: 'Add' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }

  @Tool({ description: 'Repeat' })
  repeat(@Param('text', { schema: { type: 'string', maxLength: 5 } }) text: string, @Param('times', { type: 'integer', default: 2, schema: { minimum: 1 } }) times: number): string {
    return text.repeat(times);
  }

  @Tool({ description: 'Book' })
  book(@Args() input: BookInput): string {
    return `${input.title} by ${input.authors.map((a) => `${a.name} (${a.born})`).join(', ')}: ${input instanceof BookInput} ${input.authors.every((a) => a instanceof Author)}`;
  }

  @Tool({ description: 'Count', output: Report })
  count(@Param() bad: boolean): Report {
    return (bad ? { count: 'many' } : { count: 3 }) as Report;
  }

  @Prompt({ description: 'Greet' })
  greet(@Param() name: string, @Param() times: number) {
    return `hello ${name} ${times}`;
  }
}

const calls: [string, Record<string, unknown>][] = [
  ['add', { a: 2, b: 3 }],
  ['add', { a: 'two', b: 3 }],
  ['add', { a: '2', b: 3 }],
  ['repeat', { text: 'ab' }],
  ['repeat', { text: 'toolong' }],
  ['repeat', { text: 'ab', times: 0 }],
  ['book', { title: 'Dune', pages: 412, format: 'paper', authors: [{ name: 'Frank Herbert', born: 1920 }] }],
  ['book', { title: '', pages: 0, format: 'scroll', authors: [{ name: 'X', born: 12 }] }],
  ['count', { bad: false }],
  ['count', { bad: true }],
];

function appModule(options: Partial<McpModuleOptions>): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'first-use', version: '1.0.0', ...options })], providers: [Tools] })
  class AppModule {}
  return AppModule;
}

async function answers(client: TestClient): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [name, args] of calls) out.push(await client.callTool({ name, arguments: args }));
  out.push(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', times: '2' } }));
  out.push(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', times: 'twice' } }).catch((error: Error) => error.message));
  out.push((await client.listTools()).tools);
  return out;
}

describe("compileValidators: 'onFirstUse'", () => {
  const clients: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('answers every call, valid or not, as validators compiled at start do (forRoot option)', async () => {
    const atStart = await createTestClient(appModule({}));
    const onFirstUse = await createTestClient(appModule({ compileValidators: 'onFirstUse' }));
    clients.push(atStart, onFirstUse);
    const expected = await answers(atStart);
    expect(JSON.stringify(expected)).toContain('a: must be a number');
    expect(JSON.stringify(expected)).toContain('true true');
    expect(await answers(onFirstUse)).toEqual(expected);
  });

  it('still refuses at bootstrap a default its parameter schema rejects, with the same message', async () => {
    @Injectable()
    class BadDefault {
      @Tool()
      repeat(@Param('times', { type: 'integer', default: 'twice', schema: { minimum: 1 } }) times: number) {
        return times;
      }
    }
    const failure = (options: Partial<McpModuleOptions>) => {
      @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0', ...options })], providers: [BadDefault] })
      class Bad {}
      return McpFactory.create(Bad).then(() => undefined, (error: unknown) => error);
    };
    const expected = await failure({});
    const deferred = await failure({ compileValidators: 'onFirstUse' });
    expect(deferred).toBeInstanceOf(BootstrapError);
    expect((deferred as BootstrapError).code).toBe('INVALID_DEFAULT');
    expect((deferred as Error).message).toBe((expected as Error).message);
  });

  it('still refuses at bootstrap a hand-written schema that is not a valid JSON Schema (McpFactory.create option)', async () => {
    @Injectable()
    class BadSchema {
      @Tool({ inputSchema: { type: 'object', properties: { a: { type: 'string', minLength: 'one' } } } as never })
      run() {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0' })], providers: [BadSchema] })
    class Bad {}
    const error = await McpFactory.create(Bad, { compileValidators: 'onFirstUse' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BootstrapError);
    expect((error as BootstrapError).code).toBe('INVALID_SCHEMA');
  });
});
