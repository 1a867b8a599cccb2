import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * A runtime that refuses code generation, as Cloudflare Workers do: Node with --disallow-code-generation-from-strings
 * runs spec/fixtures/validation/no-code-generation.ts (issue 39, item 3). A runtime schema (a proxied server's) is
 * interpreted there — checked against its meta-schema, draft-07 included, and validated with the same issue texts
 * — while the application's own schemas still need the validators `mcp-reflect validators` compiles ahead of time.
 */
const root = path.resolve(__dirname, '..', '..');

function run(): Promise<Record<string, any>> {
  const args = ['--disallow-code-generation-from-strings', '-r', './spec/support/register.js', 'spec/fixtures/validation/no-code-generation.ts'];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd: root, encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)))),
  );
}

describe('validation where code generation is refused', () => {
  let seen: Record<string, any>;
  beforeAll(async () => {
    seen = await run();
  }, 60_000);

  it('detects the refusal', () => {
    expect(seen.codeGeneration).toBe(false);
  });

  it('interprets a runtime schema: same issue texts, unknown properties dropped in lenient mode', () => {
    expect(seen.runtime).toEqual({ ok: { accepted: false, value: { a: 5 }, issues: ['a: must not be greater than 3'] } });
    expect(seen.runtimeValid).toEqual({ ok: { accepted: true, value: { a: 2 }, issues: [] } });
    expect(seen.draft07).toEqual({ ok: { accepted: false, value: { n: 1.5 }, issues: ['n: must be an integer'] } });
  });

  it('still refuses an invalid runtime schema, naming what is wrong (2020-12 and draft-07 meta-schemas)', () => {
    expect(seen.invalid2020.error).toMatch(/^schema is invalid: properties\.a\.type: must be one of: "array", "boolean"/);
    expect(seen.invalid07.error).toMatch(/^schema is invalid: properties\.n\.type: must be one of: "array", "boolean"/);
  });

  it("asks for precompiled validators for the application's own schemas, before and after an identical runtime schema was interpreted", () => {
    for (const key of ['applicationFirst', 'applicationAfter']) expect(seen[key].error).toMatch(/allows no code generation .* validators must be compiled ahead of time, and none were given/);
  });
});
