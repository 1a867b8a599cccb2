import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/**
 * The MCP Apps types as JSON Schema, from the official package (`@modelcontextprotocol/ext-apps/schema.json`,
 * generated from its spec.types.ts): what the server sends and what the sample view and host page exchange is
 * checked against them. Each definition is compiled on its own (some carry their own `$defs`).
 */
const schema = JSON.parse(readFileSync(require.resolve('@modelcontextprotocol/ext-apps/schema.json'), 'utf8')) as {
  $defs: Record<string, object>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/** The ajv errors of `value` against the ext-apps definition `name` (McpUiToolMeta, McpUiInitializeRequest, …); [] when valid. */
export function extAppsErrors(name: string, value: unknown): string[] {
  let validate = compiled.get(name);
  if (!validate) {
    const definition = schema.$defs[name];
    if (!definition) throw new Error(`@modelcontextprotocol/ext-apps/schema.json has no definition ${name}`);
    compiled.set(name, (validate = ajv.compile(definition)));
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
