/**
 * mcp-reflect/nest runs inside the user's Nest application, on the user's own copies of Nest: they are
 * optional peers of mcp-reflect. A project without them is told what to install before anything else fails.
 */
const PEERS = ['@nestjs/common', '@nestjs/core', 'rxjs'] as const;

const missing = PEERS.filter((name) => {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  throw new Error(
    `Cannot load mcp-reflect/nest: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed (mcp-reflect/nest runs inside your Nest application, on its own Nest packages).\n` +
      `Fix: npm install @nestjs/common @nestjs/core rxjs (Nest 11 or 12), or use the standalone McpFactory from 'mcp-reflect'.`,
  );
}

export {};
