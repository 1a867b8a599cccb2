import 'reflect-metadata';
import { Injectable, McpModule, Module, Param, Prompt, ResourceTemplate, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

@Injectable()
class Numbers {
  @ResourceTemplate('items://{id}')
  item(@Param('id', { type: 'integer' }) id: number): string {
    return `item ${JSON.stringify(id)} (${typeof id}, ${Object.is(id, -0) ? 'negative zero' : 'plain'})`;
  }

  @ResourceTemplate('scale://{ratio}/view')
  scale(@Param('ratio', { type: 'number' }) ratio: number): string {
    return `ratio ${JSON.stringify(ratio)}`;
  }

  @Tool()
  count(@Param('n', { type: 'integer' }) n: number, @Param('x') x: number): string {
    return JSON.stringify({ n, x });
  }

  @Prompt()
  page(@Param('number', { type: 'integer' }) number: number): string {
    return `page ${JSON.stringify(number)}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'coercion-hardening', version: '1.0.0' })], providers: [Numbers] })
class NumbersModule {}

let client: TestClient;
beforeAll(async () => {
  client = await createTestClient(NumbersModule);
});
afterAll(() => client.close());

async function read(uri: string): Promise<string> {
  return client.readResource({ uri }).then(
    (result) => (result.contents[0] as { text: string }).text,
    (error: { code: number; message: string }) => `${error.code} ${error.message}`,
  );
}

async function call(args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: 'count', arguments: args });
  return (result.content as { text: string }[])[0].text;
}

describe('integer template variables accept only canonical decimal integers within the safe range', () => {
  it.each([
    ['items://7', 'item 7 (number, plain)'],
    ['items://0', 'item 0 (number, plain)'],
    ['items://-12', 'item -12 (number, plain)'],
    ['items://-0', 'item 0 (number, plain)'],
    ['items://9007199254740991', 'item 9007199254740991 (number, plain)'],
    ['items://-9007199254740991', 'item -9007199254740991 (number, plain)'],
  ])('%s → %s', async (uri, text) => {
    expect(await read(uri)).toBe(text);
  });

  it.each(['1e3', '007', '+7', ' 7', '7 ', '1.0', '0x10', '7.5', 'seven', '9007199254740992', '-9007199254740992', '123456789012345678901234567890'])(
    'items://%s is refused, naming the variable',
    async (value) => {
      expect(await read(`items://${value}`)).toBe(`-32602 Invalid resource URI 'items://${value}' for template 'items://{id}': id: must be an integer`);
    },
  );
});

describe('number template variables refuse blanks', () => {
  it.each([
    ['2.5', 'ratio 2.5'],
    ['-.5', 'ratio -0.5'],
    ['1e3', 'ratio 1000'],
  ])('scale://%s/view → %s', async (value, text) => {
    expect(await read(`scale://${value}/view`)).toBe(text);
  });

  it.each([' 2.5', '2.5 ', ' '])('scale://%j/view is refused', async (value) => {
    const uri = `scale://${value}/view`;
    expect(await read(uri)).toBe(`-32602 Invalid resource URI '${uri}' for template 'scale://{ratio}/view': ratio: must be a number`);
  });

  it('an empty variable does not match the template at all', async () => {
    expect(await read('scale:///view')).toBe('-32602 Resource not found: scale:///view');
  });
});

describe('tool arguments (lenient): numeric strings without blanks, integers within the safe range', () => {
  it('still coerces numeric strings, "007" and "1e3" included, at an integer position', async () => {
    expect(await call({ n: '007', x: '2.5' })).toBe('{"n":7,"x":2.5}');
    expect(await call({ n: '1e3', x: '-.5' })).toBe('{"n":1000,"x":-0.5}');
    expect(await call({ n: '9007199254740991', x: '1e3' })).toBe('{"n":9007199254740991,"x":1000}');
  });

  it('refuses blank-padded or empty numbers and integers beyond the safe range', async () => {
    expect(await call({ n: ' 7', x: '2.5 ' })).toBe('Invalid arguments for tool count: n: must be an integer; x: must be a number');
    expect(await call({ n: '', x: ' ' })).toBe('Invalid arguments for tool count: n: must be an integer; x: must be a number');
    expect(await call({ n: '9007199254740993', x: 1 })).toBe('Invalid arguments for tool count: n: must be an integer');
    expect(await call({ n: '1e20', x: 1 })).toBe('Invalid arguments for tool count: n: must be an integer');
  });
});

describe('prompt arguments: the same rules as tool arguments', () => {
  it('coerces "12" and refuses " 12"', async () => {
    expect((await client.getPrompt({ name: 'page', arguments: { number: '12' } })).messages[0].content).toEqual({ type: 'text', text: 'page 12' });
    await expect(client.getPrompt({ name: 'page', arguments: { number: ' 12' } })).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid arguments for prompt page: number: must be an integer',
    });
  });
});
