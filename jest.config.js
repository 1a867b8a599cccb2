/** @type {import('jest').Config} */
const { readFileSync } = require('node:fs');
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper: {
    '^mcp-reflect$': '<rootDir>/lib/index.ts',
    '^mcp-reflect/testing$': '<rootDir>/lib/testing/index.ts',
  },
  testTimeout: 30000,
};
