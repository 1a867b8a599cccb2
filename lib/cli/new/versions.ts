/**
 * The versions a new project pins: mcp-reflect's own (this package's `version`) and, for the rest, the ones
 * this repository builds and tests with (its package.json). Kept here, not read from package.json at run time,
 * so the CLI needs nothing outside dist/; spec/cli/new.spec.ts fails when they drift apart.
 */
export const scaffoldVersions = {
  'mcp-reflect': '0.1.0',
  'reflect-metadata': '0.2.2',
  'class-validator': '0.15.1',
  'class-transformer': '0.5.1',
  typescript: '7.0.2',
  jest: '30.5.2',
  '@jest/globals': '30.5.2',
  '@swc/core': '1.16.22',
  '@swc/jest': '0.2.39',
  '@types/node': '20.19.43',
} as const;
