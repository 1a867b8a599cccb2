import { scaffoldVersions as v } from './versions';

/** One file of a new project: its path (with `/`) and its content. */
export interface TemplateFile {
  readonly path: string;
  readonly content: string;
}

/**
 * The files of `mcp-reflect new`: a CommonJS project compiled by TypeScript 7 with the tsconfig of
 * docs/setup.md, tested by jest through @swc/jest as docs/testing.md sets it up (spec/cli/new.spec.ts checks
 * both against the docs, then installs, type-checks, builds and tests a scaffold). Strings, not files on disk,
 * so that they ship inside dist/.
 */
export function projectFiles(name: string, library?: string): TemplateFile[] {
  return [
    { path: 'package.json', content: `${JSON.stringify(packageJson(name, library), null, 2)}\n` },
    { path: 'tsconfig.json', content: tsconfig },
    { path: '.swcrc', content: swcrc },
    { path: 'jest.config.js', content: jestConfig },
    { path: '.gitignore', content: 'node_modules/\ndist/\n*.tsbuildinfo\n' },
    { path: 'README.md', content: readme(name) },
    { path: 'src/main.ts', content: main(name) },
    { path: 'src/app.module.ts', content: appModule(name) },
    { path: 'src/greeting.tools.ts', content: greetingTools },
    { path: 'src/greeting.tools.spec.ts', content: greetingSpec },
  ];
}

/** `library`: where mcp-reflect comes from when not the registry (`file:vendor/mcp-reflect-<version>.tgz`). */
function packageJson(name: string, library = `^${v['mcp-reflect']}`) {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'commonjs',
    scripts: {
      generate: 'mcp-reflect generate',
      build: 'mcp-reflect generate --quiet && tsc',
      start: 'node dist/main.js',
      test: 'mcp-reflect generate --quiet && tsc --noEmit && jest',
      inspect: 'mcp-reflect generate --quiet && tsc && mcp-reflect inspect dist/app.module.js',
    },
    dependencies: {
      'mcp-reflect': library,
      'class-transformer': v['class-transformer'],
      'class-validator': v['class-validator'],
      'reflect-metadata': v['reflect-metadata'],
    },
    devDependencies: {
      '@jest/globals': v['@jest/globals'],
      '@swc/core': v['@swc/core'],
      '@swc/jest': v['@swc/jest'],
      '@types/node': v['@types/node'],
      jest: v.jest,
      typescript: v.typescript,
    },
  };
}

const tsconfig = `{
  "compilerOptions": {
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "types": ["node"],
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "useDefineForClassFields": false,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

const swcrc = `{
  "$schema": "https://swc.rs/schema.json",
  "jsc": {
    "parser": { "syntax": "typescript", "decorators": true },
    "transform": { "legacyDecorator": true, "decoratorMetadata": true, "useDefineForClassFields": false },
    "keepClassNames": true,
    "target": "es2022"
  }
}
`;

const jestConfig = `module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  transform: { '^.+\\\\.ts$': '@swc/jest' },
  moduleNameMapper: { '^(\\\\.{1,2}/.*)\\\\.js$': '$1' },
};
`;

const main = (name: string) => `import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { AppModule } from './app.module.js';
// The full TypeScript types of the tools, written by \`npm run generate\` (build and test run it too).
import { metadata } from './mcp-metadata.js';

async function main() {
  const app = await McpFactory.create(AppModule, { metadata });
  app.enableShutdownHooks();
  await app.listen({ transport: 'stdio' });
  // stdout carries the protocol: log to stderr.
  console.error('${name} MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const appModule = (name: string) => `import { McpModule, Module } from 'mcp-reflect';
import { GreetingTools } from './greeting.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: '${name}', version: '0.1.0' })],
  // Every class with @Tool(), @Resource() or @Prompt() methods must be provided by a module.
  providers: [GreetingTools],
})
export class AppModule {}
`;

const greetingTools = `import { Injectable, Param, Tool, ToolError } from 'mcp-reflect';

/**
 * Each @Tool() method is a tool; its @Param() parameters are the tool's arguments. Their schemas come from the
 * TypeScript types and the JSDoc, which \`mcp-reflect generate\` writes into src/mcp-metadata.ts.
 */
@Injectable()
export class GreetingTools {
  /**
   * Greet someone by name
   * @param name who to greet
   * @param style how to greet
   */
  @Tool()
  greet(@Param() name: string, @Param() style: 'plain' | 'excited' = 'plain'): string {
    if (name.trim() === '') throw new ToolError('Give a name to greet, e.g. "Ada".');
    return style === 'excited' ? \`Hello, \${name}!!!\` : \`Hello, \${name}!\`;
  }

  /** Add two numbers */
  @Tool()
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }
}
`;

const greetingSpec = `import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { AppModule } from './app.module.js';
import { metadata } from './mcp-metadata.js';

describe('GreetingTools', () => {
  let client: TestClient;
  afterEach(() => client?.close());

  it('lists the tools with their input schemas', async () => {
    client = await createTestClient(AppModule, { metadata });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['greet', 'add']);
    expect(tools[0]!.inputSchema).toMatchObject({
      properties: {
        name: { type: 'string', description: 'who to greet' },
        style: { type: 'string', enum: expect.arrayContaining(['plain', 'excited']), default: 'plain', description: 'how to greet' },
      },
      required: ['name'],
    });
  });

  it('greets', async () => {
    client = await createTestClient(AppModule, { metadata });
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const excited = await client.callTool({ name: 'greet', arguments: { name: 'Ada', style: 'excited' } });
    expect(excited.content).toEqual([{ type: 'text', text: 'Hello, Ada!!!' }]);
  });

  it('answers a ToolError and invalid arguments with an error result', async () => {
    client = await createTestClient(AppModule, { metadata });
    const empty = await client.callTool({ name: 'greet', arguments: { name: ' ' } });
    expect(empty).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Give a name to greet, e.g. "Ada".' }] });
    const bad = await client.callTool({ name: 'add', arguments: { a: 'one', b: 2 } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool add: a: must be a number' }] });
  });
});
`;

const readme = (name: string) => `# ${name}

An MCP server built with [mcp-reflect](https://github.com/mcp-reflect/mcp-reflect): decorated TypeScript classes
become tools, resources and prompts, with schemas and validation from their types.

\`\`\`sh
npm install
npm test          # generate the types, tsc --noEmit, then jest (src/*.spec.ts, through @swc/jest)
npm run build     # generate the types, then tsc: src/*.ts -> dist/*.js
npm run generate  # mcp-reflect generate: the tools' TypeScript types and JSDoc -> src/mcp-metadata.ts
npm start         # serve over stdio: node dist/main.js
npm run inspect   # build, then list every tool with its input schema (mcp-reflect inspect)
\`\`\`

- \`src/main.ts\` starts the server on stdio. stdout carries the protocol: log with \`console.error\`.
- \`src/app.module.ts\` is the root module: \`McpModule.forRoot()\` names the server, \`providers\` lists the
  classes whose tools it serves.
- \`src/mcp-metadata.ts\` is written by \`mcp-reflect generate\` from the types and JSDoc of the tools (a literal
  union becomes an \`enum\`, a default an optional argument): commit it, and run \`npx mcp-reflect generate --check\`
  in CI to catch a stale one.
- \`src/greeting.tools.ts\` holds two sample tools; \`src/greeting.tools.spec.ts\` tests them in memory with the
  official MCP SDK client (\`createTestClient\` from \`mcp-reflect/testing\`).

Try one tool without a client: \`npm run build && npx mcp-reflect call dist/app.module.js greet --args '{"name": "Ada"}'\`.

To use the server from an MCP client that launches stdio servers, register the command
\`node /absolute/path/to/this/project/dist/main.js\`.
`;
