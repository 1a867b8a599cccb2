import { BootstrapError, BootstrapErrorCode } from '../errors';

const KINDS = ['tools', 'prompts', 'resources'];
const TEXTS = ['name', 'title', 'description'];
const ARG_KEYS = ['name', 'description', 'default', 'hide'];

/**
 * The shape of a `transforms` option (`forRoot`, `forFeature`, `app.tools.add`, `McpModule.proxy`), checked
 * where it is given: kinds, then per name an object of known fields with values of their types. Whether the
 * names name anything is checked once the components are known (UNKNOWN_TRANSFORM_TARGET).
 */
export function checkTransforms(transforms: unknown, where: string): void {
  if (transforms === undefined) return;
  const fail = (path: string, cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot use ${where}({ transforms${path} }): ${cause}.\nFix: ${fix}.`);
  if (!isObject(transforms)) throw fail('', 'it is not an object', "give { tools: { search: { name: 'find' } } }");
  for (const [kind, entries] of Object.entries(transforms)) {
    if (!KINDS.includes(kind)) throw fail(`.${kind}`, `'${kind}' is not a kind of component`, `key transforms by ${KINDS.map((k) => `'${k}'`).join(', ')}`);
    if (!isObject(entries)) throw fail(`.${kind}`, 'it is not an object', `give { ${kind}: { <name>: { description: '…' } } }`);
    for (const [name, transform] of Object.entries(entries)) {
      const path = `.${kind}.${name}`;
      if (!isObject(transform)) throw fail(path, 'it is not an object', `give { name?, title?, description?, tags?, enabled?, meta?${kind === 'tools' ? ', args?' : ''} }`);
      const allowed = [...TEXTS, 'tags', 'enabled', 'meta', ...(kind === 'tools' ? ['args'] : [])];
      for (const [key, value] of Object.entries(transform)) {
        if (!allowed.includes(key)) throw fail(path, `'${key}' is not a field of a transform`, `use ${allowed.map((k) => `'${k}'`).join(', ')}`);
        if (value === undefined) continue;
        if (TEXTS.includes(key) && (typeof value !== 'string' || (key === 'name' && value === ''))) throw fail(`${path}.${key}`, `${JSON.stringify(value)} is not ${key === 'name' ? 'a non-empty string' : 'a string'}`, `give a text, e.g. ${key}: '${key === 'name' ? `${name}_2` : '…'}'`);
        if (key === 'tags' && !(Array.isArray(value) && value.every((t) => typeof t === 'string'))) throw fail(`${path}.tags`, 'it is not an array of strings', "give tags: ['beta']");
        if (key === 'enabled' && typeof value !== 'boolean') throw fail(`${path}.enabled`, `${JSON.stringify(value)} is not a boolean`, 'give enabled: false to register it disabled');
        if (key === 'meta' && !isObject(value)) throw fail(`${path}.meta`, 'it is not an object', "give meta: { 'example.com/owner': 'team-a' }");
        if (key === 'args') checkArgs(value, `${path}.args`, fail);
      }
    }
  }
}

function checkArgs(args: unknown, path: string, fail: (path: string, cause: string, fix: string) => BootstrapError): void {
  if (!isObject(args)) throw fail(path, 'it is not an object', "give args: { city: { name: 'location' } }");
  for (const [arg, transform] of Object.entries(args)) {
    if (!isObject(transform)) throw fail(`${path}.${arg}`, 'it is not an object', "give { name?, description?, default?, hide? }");
    const unknown = Object.keys(transform).find((key) => !ARG_KEYS.includes(key));
    if (unknown !== undefined) throw fail(`${path}.${arg}`, `'${unknown}' is not a field of an argument transform`, `use ${ARG_KEYS.map((k) => `'${k}'`).join(', ')}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
