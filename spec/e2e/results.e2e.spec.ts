import 'reflect-metadata';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { IsInt, IsString } from 'class-validator';
import {
  Injectable,
  McpModule,
  Module,
  Param,
  Tool,
  ToolError,
  ToolResult,
  audio,
  embeddedResource,
  image,
  resourceLink,
  text,
  type McpModuleOptions,
  type ServerLogger,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

class Point {
  @IsInt() x!: number;
  @IsInt() y!: number;
  norm(): number {
    return Math.hypot(this.x, this.y);
  }
}

class Named {
  @IsString() name!: string;
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

@Injectable()
class ResultTools {
  @Tool() greet(@Param() name: string): string {
    return `Hello, ${name}!`;
  }
  @Tool() count(): number {
    return 42;
  }
  @Tool() yes(): boolean {
    return true;
  }
  @Tool() point(): Point {
    return Object.assign(new Point(), { x: 3, y: 4 });
  }
  @Tool() stamped(): { at: Date } {
    return { at: new Date('2026-01-02T03:04:05.000Z') };
  }
  @Tool() list(): string[] {
    return ['a', 'b'];
  }
  @Tool() nothing(): void {}
  @Tool() nil(): null {
    return null;
  }
  @Tool() picture() {
    return image(PNG, 'image/png');
  }
  @Tool() mixed() {
    return [
      text('see attached'),
      image('iVBORw0KGgo=', 'image/png'),
      audio(PNG, 'audio/wav'),
      embeddedResource('test://doc', 'body', 'text/plain'),
      embeddedResource('test://bin', PNG, 'application/octet-stream'),
      resourceLink('test://big.csv', 'big.csv', { mimeType: 'text/csv' }),
    ];
  }
  @Tool() full(): ToolResult {
    return new ToolResult({ content: [text('raw')], structuredContent: { ok: 1 }, _meta: { 'x/trace': 'abc' } });
  }
  @Tool({ output: Point }) typedPoint(@Param() x: number): Point {
    return Object.assign(new Point(), { x, y: x });
  }
  @Tool({ output: Point }) badPoint(): unknown {
    return { x: 'not a number', y: 1, extra: true };
  }
  @Tool({ output: [Named] }) names(): Named[] {
    return [{ name: 'ada' }, { name: 'alan' }];
  }
  @Tool() refuse(): never {
    throw new ToolError('Refused: the account is locked. Ask the user to unlock it first.');
  }
  @Tool() crash(): never {
    throw new Error('database password is hunter2');
  }
  @Tool() protocol(): never {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'not allowed now');
  }
}

function moduleWith(options: Partial<McpModuleOptions> = {}) {
  @Module({ imports: [McpModule.forRoot({ name: 'results', version: '1.0.0', ...options })], providers: [ResultTools] })
  class ResultsModule {}
  return ResultsModule;
}

function capturingLogger() {
  const errors: { message: string; error?: unknown }[] = [];
  const logger: ServerLogger = { error: (message, error) => errors.push({ message, error }), warn: () => {} };
  return { errors, logger };
}

describe('tool results and errors (through an SDK client)', () => {
  it('keeps the method callable as a plain method', () => {
    expect(new ResultTools().greet('Ada')).toBe('Hello, Ada!');
    expect(ResultTools.prototype.greet).toBe(Object.getPrototypeOf(new ResultTools()).greet);
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('converts return values to content (%s)', async (protocolVersion) => {
    const client = await createTestClient(moduleWith({ logger: capturingLogger().logger }), { protocolVersion });
    try {
      const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
      expect((await call('greet', { name: 'Ada' })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      expect((await call('count')).content).toEqual([{ type: 'text', text: '42' }]);
      expect((await call('yes')).content).toEqual([{ type: 'text', text: 'true' }]);

      const point = await call('point');
      expect(point.structuredContent).toEqual({ x: 3, y: 4 });
      expect(point.content).toEqual([{ type: 'text', text: '{"x":3,"y":4}' }]);

      expect((await call('stamped')).structuredContent).toEqual({ at: '2026-01-02T03:04:05.000Z' });
      const list = await call('list');
      expect(list.content).toEqual([{ type: 'text', text: '["a","b"]' }]);
      expect(list.structuredContent).toBeUndefined();
      expect((await call('nothing')).content).toEqual([]);
      expect((await call('nil')).content).toEqual([]);

      expect((await call('picture')).content).toEqual([{ type: 'image', data: 'iVBORw==', mimeType: 'image/png' }]);
      expect((await call('mixed')).content).toEqual([
        { type: 'text', text: 'see attached' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'iVBORw==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'test://doc', text: 'body', mimeType: 'text/plain' } },
        { type: 'resource', resource: { uri: 'test://bin', blob: 'iVBORw==', mimeType: 'application/octet-stream' } },
        { type: 'resource_link', uri: 'test://big.csv', name: 'big.csv', mimeType: 'text/csv' },
      ]);

      const full = await call('full');
      expect(full.content).toEqual([{ type: 'text', text: 'raw' }]);
      expect(full.structuredContent).toEqual({ ok: 1 });
      expect(full._meta).toMatchObject({ 'x/trace': 'abc' });
    } finally {
      await client.close();
    }
  });

  it('validates and wraps output against the output schema', async () => {
    const { errors, logger } = capturingLogger();
    const client = await createTestClient(moduleWith({ logger }));
    try {
      const typed = await client.callTool({ name: 'typedPoint', arguments: { x: 2 } });
      expect(typed.structuredContent).toEqual({ x: 2, y: 2 });
      const names = await client.callTool({ name: 'names', arguments: {} });
      expect(names.structuredContent).toEqual({ result: [{ name: 'ada' }, { name: 'alan' }] });
      expect(names.content).toEqual([{ type: 'text', text: '{"result":[{"name":"ada"},{"name":"alan"}]}' }]);

      const bad = await client.callTool({ name: 'badPoint', arguments: {} });
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([
        {
          type: 'text',
          text: "Tool 'badPoint' returned output that does not match its output schema: extra: is not an accepted property; x: must be an integer",
        },
      ]);
      expect(errors.map((e) => e.message)).toEqual([
        "Tool 'badPoint' (ResultTools.badPoint) returned output that does not match its output schema: extra: is not an accepted property; x: must be an integer",
      ]);
    } finally {
      await client.close();
    }
  });

  it('maps errors: ToolError verbatim, unknown tool and protocol errors as JSON-RPC, others masked and logged', async () => {
    const { errors, logger } = capturingLogger();
    const client = await createTestClient(moduleWith({ logger }));
    try {
      expect(await client.callTool({ name: 'refuse', arguments: {} })).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'Refused: the account is locked. Ask the user to unlock it first.' }],
      });
      await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('Unknown tool: missing'),
      });
      await expect(client.callTool({ name: 'protocol', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidRequest,
        message: expect.stringContaining('not allowed now'),
      });
      const crash = await client.callTool({ name: 'crash', arguments: {} });
      expect(crash).toMatchObject({ isError: true, content: [{ type: 'text', text: "Error calling tool 'crash'" }] });
      expect(JSON.stringify(crash)).not.toContain('hunter2');
      expect(errors).toHaveLength(1);
      expect(errors[0].message).toBe("Tool 'crash' (ResultTools.crash) threw:");
      expect((errors[0].error as Error).message).toBe('database password is hunter2');
    } finally {
      await client.close();
    }
  });

  it('shows error details when maskErrorDetails is false', async () => {
    const client = await createTestClient(moduleWith({ maskErrorDetails: false, logger: capturingLogger().logger }));
    try {
      const crash = await client.callTool({ name: 'crash', arguments: {} });
      expect(crash.content).toEqual([{ type: 'text', text: "Error calling tool 'crash': database password is hunter2" }]);
    } finally {
      await client.close();
    }
  });
});

describe('raw input schemas', () => {
  it('applies a @Param default when the argument is absent', async () => {
    @Injectable()
    class RawTools {
      @Tool({ inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] } })
      search(@Param('q') q: string, @Param('limit', { default: 10 }) limit: number): string {
        return `${q}:${limit}`;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'raw', version: '1.0.0' })], providers: [RawTools] })
    class RawModule {}
    const client = await createTestClient(RawModule);
    try {
      expect((await client.callTool({ name: 'search', arguments: { q: 'mcp' } })).content).toEqual([{ type: 'text', text: 'mcp:10' }]);
      expect((await client.callTool({ name: 'search', arguments: { q: 'mcp', limit: 3 } })).content).toEqual([
        { type: 'text', text: 'mcp:3' },
      ]);
      expect(() => client.app.get('MISSING')).toThrow(
        "Cannot get 'MISSING': no module of the application provides it.\nFix: add it to the providers of a module in the application's module graph.",
      );
    } finally {
      await client.close();
    }
  });
});
