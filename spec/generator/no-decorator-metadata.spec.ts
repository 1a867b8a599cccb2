import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** The fixture compiled by swc with decoratorMetadata off (what esbuild, tsx and Vite emit), as a process. */
function run(args: readonly string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-r', './spec/support/register.js', 'spec/fixtures/generate-project/without-decorator-metadata.ts', ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', MCP_REFLECT_NO_DECORATOR_METADATA: '1' } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    );
  });
}

const text = (result: { content: { text: string }[] }) => result.content[0].text;

jest.setTimeout(120_000);

describe('builds without decorator metadata (esbuild, tsx, Vite) serve the generated types', () => {
  it('without the generated file they stop at bootstrap and point to the generator', async () => {
    const out = await run([]);
    expect(out.emitted).toBe(false);
    expect(out.error.code).toBe('DECORATOR_METADATA_MISSING');
    expect(out.error.message).toContain('npx mcp-reflect generate');
  });

  it('with it, they advertise and validate the same schemas and build DTO instances and Dates', async () => {
    const out = await run(['--with-metadata']);
    expect(out.emitted).toBe(false);
    expect(out.tools.greet.properties.mode).toEqual({ type: 'string', enum: ['fast', 'slow'], description: 'how fast' });
    expect(out.tools.greet.required).toEqual(['name', 'mode']);
    expect(out.tools.save.properties.address.required).toEqual(['street']);
    expect(text(out.greet)).toBe('Hello Ada (fast) Hello Ada (fast)');
    expect(out.banana.isError).toBe(true);
    expect(JSON.parse(text(out.save))).toMatchObject({ addressIsInstance: 'Address', birthdayIsDate: true });
  });
});
