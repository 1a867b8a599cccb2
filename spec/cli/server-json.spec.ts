import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { REGISTRY_SERVER_SCHEMA } from '../../lib/cli/registry-schema.generated';

const root = path.resolve(__dirname, '..', '..');
const vendored = path.join(root, 'tools', 'registry', 'server.schema.2025-12-11.json');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `mcp-reflect server-json` as a process, in `cwd`: from the source, or from the build (dist/, as the package ships it). */
function serverJson(cwd: string, ...args: string[]): Promise<Run> {
  return cli(['-r', path.join(root, 'spec/support/register.js'), path.join(root, 'lib/cli/main.ts')], cwd, args);
}

function cli(command: string[], cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) =>
    execFile(process.execPath, [...command, 'server-json', ...args], { cwd, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** The registry's published schema, from the vendored file itself (not from the module the CLI uses). */
function registryValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(vendored, 'utf8')));
}

const PACKAGE = {
  name: '@acme/weather',
  version: '1.4.0',
  description: 'Weather forecasts and alerts for any city.',
  mcpName: 'io.github.acme/weather',
  homepage: 'https://acme.example/weather',
  repository: { type: 'git', url: 'git+https://github.com/acme/weather.git' },
};

describe('mcp-reflect server-json', () => {
  let project: string;
  const validate = registryValidator();
  const written = () => JSON.parse(readFileSync(path.join(project, 'server.json'), 'utf8'));
  beforeEach(() => {
    project = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-server-json-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify(PACKAGE));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it('the CLI validates against the vendored schema of the registry, 2025-12-11 (the generated module is not stale)', () => {
    const schema = JSON.parse(readFileSync(vendored, 'utf8'));
    expect(schema.$id).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(REGISTRY_SERVER_SCHEMA).toEqual(schema);
    const { generate } = require('../../tools/generate-registry-schema.js') as { generate(): string };
    expect(readFileSync(path.join(root, 'lib', 'cli', 'registry-schema.generated.ts'), 'utf8')).toBe(generate());
  });

  it('package form: the npm package of package.json over stdio, with its environment and arguments', async () => {
    const run = await serverJson(project, '--env', 'WEATHER_REGION', '--secret-env', 'WEATHER_API_KEY', '--arg', '--stdio');
    expect(run).toEqual({ code: 0, stdout: 'Wrote server.json (io.github.acme/weather 1.4.0, npm package @acme/weather over stdio).\n', stderr: '' });
    const document = written();
    expect(document).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.acme/weather',
      description: 'Weather forecasts and alerts for any city.',
      version: '1.4.0',
      repository: { url: 'https://github.com/acme/weather', source: 'github' },
      websiteUrl: 'https://acme.example/weather',
      packages: [
        {
          registryType: 'npm',
          identifier: '@acme/weather',
          version: '1.4.0',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          packageArguments: [{ type: 'positional', value: '--stdio' }],
          environmentVariables: [
            { name: 'WEATHER_REGION', isRequired: true },
            { name: 'WEATHER_API_KEY', isRequired: true, isSecret: true },
          ],
        },
      ],
    });
    expect(validate(document)).toBe(true);
    // Again, the same file: said so.
    expect((await serverJson(project, '--env', 'WEATHER_REGION', '--secret-env', 'WEATHER_API_KEY', '--arg', '--stdio')).stdout).toBe('Unchanged: server.json (io.github.acme/weather 1.4.0, npm package @acme/weather over stdio).\n');
  });

  it('runs from the build as the package ships it (the schema is compiled into dist/, no file beside it)', async () => {
    const run = await cli([path.join(root, 'dist', 'cli', 'main.js')], project, ['--dry-run']);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.packages[0]).toMatchObject({ registryType: 'npm', identifier: '@acme/weather', transport: { type: 'stdio' } });
    expect(validate(document)).toBe(true);
  });

  it('package form without mcpName: the name comes from the GitHub repository', async () => {
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ ...PACKAGE, mcpName: undefined, repository: 'github:acme/weather-mcp' }));
    expect((await serverJson(project)).code).toBe(0);
    const document = written();
    expect([document.name, document.repository]).toEqual(['io.github.acme/weather-mcp', { url: 'https://github.com/acme/weather-mcp', source: 'github' }]);
    expect(validate(document)).toBe(true);
  });

  it('remote form: a Streamable HTTP endpoint with the headers a client sends', async () => {
    const out = path.join(project, 'registry', 'remote.json');
    const run = await serverJson(project, '--remote', 'https://weather.acme.example/mcp', '--name', 'io.github.acme/weather-remote', '--secret-header', 'Authorization', '--out', out);
    expect(run.code).toBe(0);
    const document = JSON.parse(readFileSync(out, 'utf8'));
    expect(document).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.acme/weather-remote',
      description: 'Weather forecasts and alerts for any city.',
      version: '1.4.0',
      repository: { url: 'https://github.com/acme/weather', source: 'github' },
      websiteUrl: 'https://acme.example/weather',
      remotes: [{ type: 'streamable-http', url: 'https://weather.acme.example/mcp', headers: [{ name: 'Authorization', isRequired: true, isSecret: true }] }],
    });
    expect(validate(document)).toBe(true);
  });

  it('remote form without package.json: name, description and version from the options; --dry-run writes nothing', async () => {
    rmSync(path.join(project, 'package.json'));
    const run = await serverJson(project, '--remote', 'https://mcp.example.com/mcp', '--name', 'com.example/notes', '--description', 'Notes.', '--version', '2.0.0', '--dry-run');
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document).toEqual({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name: 'com.example/notes', description: 'Notes.', version: '2.0.0', remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }] });
    expect(validate(document)).toBe(true);
    expect(existsSync(path.join(project, 'server.json'))).toBe(false);
  });

  it.each([
    [{ ...PACKAGE, mcpName: undefined, repository: undefined }, [], `server-json needs the server's registry name: give --name io.github.<owner>/<name>, or add "mcpName" to package.json.`],
    [PACKAGE, ['--name', 'weather'], `Invalid --name "weather": a registry name is reverse-DNS with exactly one slash (letters, digits, '.', '-', '_'), e.g. io.github.acme/weather.`],
    [{ ...PACKAGE, description: 'x'.repeat(120) }, [], 'The description is 120 characters; the registry takes at most 100: give a shorter one with --description.'],
    [{ ...PACKAGE, version: '^1.4.0' }, [], 'Invalid version "^1.4.0": the registry takes one exact version (e.g. 1.2.3), not a range.'],
    [PACKAGE, ['--remote', 'ftp://weather.example/mcp'], 'Invalid --remote "ftp://weather.example/mcp": give the server\'s Streamable HTTP URL, e.g. https://mcp.example.com/mcp.'],
    [PACKAGE, ['--remote', 'https://weather.example/mcp', '--env', 'KEY'], '--env, --secret-env and --arg describe how a client runs the npm package: they belong to the package form, not to --remote.'],
    [PACKAGE, ['--header', 'Authorization'], '--header and --secret-header describe what a client sends to a remote server: give --remote <url> with them.'],
    [PACKAGE, ['--env', 'API_KEY=secret'], 'Invalid --env "API_KEY=secret": give a name only (e.g. API_KEY); the client asks for its value.'],
    [PACKAGE, ['--verbose'], 'Unknown option --verbose for `mcp-reflect server-json`.'],
  ])('refuses bad input with a usage error that names the fix (%#)', async (pkg, args, message) => {
    writeFileSync(path.join(project, 'package.json'), JSON.stringify(pkg));
    const run = await serverJson(project, ...args);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${message}\nRun \`mcp-reflect --help\` for usage.\n` });
    expect(existsSync(path.join(project, 'server.json'))).toBe(false);
  });

  it('what passes its own checks but not the registry schema is refused with the schema\'s words, and nothing is written', async () => {
    const run = await serverJson(project, '--remote', 'https://weather.example/my mcp');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `The server.json would not pass the registry's schema (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json): /remotes/0/url: must match pattern "^https?://[^\\s]+$"`,
    );
    expect(run.stderr).toContain('Fix the option or package.json field named, then run this again.');
    expect(existsSync(path.join(project, 'server.json'))).toBe(false);
  });

  it('the package form needs a package.json', async () => {
    rmSync(path.join(project, 'package.json'));
    const run = await serverJson(project);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`No package.json in ${project}: the package form describes an npm package. Give --package <dir>, or --remote <url> for a remote server.`);
  });
});
