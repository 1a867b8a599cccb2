import { checkTransforms, NAMESPACE_PATTERN } from '../catalogue';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { McpProxyOptions } from './proxy.options';

/** The options of `McpModule.proxy()`, checked where the module is declared (each mistake named with its fix). */
export function checkProxyOptions(options: McpProxyOptions): McpProxyOptions {
  const fail = (cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot use McpModule.proxy(${describe(options)}): ${cause}.\nFix: ${fix}.`);
  if (!options || typeof options !== 'object') throw fail('it takes an options object', "give McpModule.proxy({ namespace: 'docs', url: 'https://mcp.example.com/mcp' })");
  if (typeof options.namespace !== 'string' || !NAMESPACE_PATTERN.test(options.namespace)) {
    throw fail(
      `the namespace ${JSON.stringify(options.namespace) ?? 'is missing'}${typeof options.namespace === 'string' ? ' is not 1 to 64 letters, digits, "-" or ".", starting with a letter or a digit' : ''} (it prefixes every proxied component)`,
      "give a short namespace, e.g. namespace: 'docs'",
    );
  }
  const ways = (['stdio', 'url', 'transport'] as const).filter((key) => options[key] !== undefined);
  if (ways.length !== 1) {
    throw fail(ways.length ? `it names ${ways.join(' and ')}: one way to reach the remote` : 'it names no way to reach the remote', "give one of stdio: { command, args }, url: 'https://…/mcp' or transport: () => new InMemoryTransport…");
  }
  if (options.transport !== undefined && typeof options.transport !== 'function') {
    throw fail('transport is not a function', 'give a function that returns a new SDK client transport for each connection');
  }
  if (options.stdio && (typeof options.stdio.command !== 'string' || options.stdio.command === '')) {
    throw fail('stdio.command is not a command', 'give the executable, e.g. stdio: { command: process.execPath, args: ["server.js"] }');
  }
  if (options.url !== undefined) {
    const url = URL.canParse(String(options.url)) ? new URL(String(options.url)) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw fail(`the url ${JSON.stringify(String(options.url))} is not an http(s) URL`, "give the remote's Streamable HTTP endpoint, e.g. url: 'https://mcp.example.com/mcp'");
  }
  if (options.protocol !== undefined && !['auto', '2025-11-25', '2026-07-28'].includes(options.protocol)) {
    throw fail(`protocol ${JSON.stringify(options.protocol)} is not an era the proxy speaks`, "give protocol: 'auto' (the default), '2025-11-25' or '2026-07-28'");
  }
  const examples = { connectTimeout: 10_000, requestTimeout: 60_000, relistInterval: 1_000, maxComponents: 500, maxListPages: 20, maxCalls: 256, maxCallsPerClient: 32, maxMessageBytes: 8_388_608, maxComponentBytes: 262_144, maxCatalogueBytes: 8_388_608 };
  for (const key of Object.keys(examples) as (keyof typeof examples)[]) {
    const value = options[key];
    const unit = /Timeout|Interval/.test(key) ? 'milliseconds' : /Bytes/.test(key) ? 'bytes' : 'a count';
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) throw fail(`${key} is ${JSON.stringify(value)}, not a whole number above 0`, `give ${unit}, e.g. ${key}: ${examples[key]}`);
  }
  checkTransforms(options.transforms, 'McpModule.proxy');
  return { ...options };
}

function describe(options: McpProxyOptions | undefined): string {
  return options && typeof options === 'object' && typeof options.namespace === 'string' ? `{ namespace: '${options.namespace}', … }` : '…';
}
