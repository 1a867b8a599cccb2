import { closestName } from '../catalogue';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ComponentTransform, ComponentTransforms, ToolTransform } from '../interfaces';
import type { MethodHost } from '../invocation';
import type { ComponentRecord, ExploredComponents } from '../pipeline';

/** What every transformable component's options have. */
interface Named {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly _meta?: Record<string, unknown>;
}

type Kind = 'tool' | 'prompt' | 'resource';
const KIND_KEYS = { tool: 'tools', prompt: 'prompts', resource: 'resources' } as const;

/**
 * The transforms of the hosts' own modules (`McpModule.forFeature({ transforms })`, `app.tools.add(instance,
 * { transforms })`), keyed by declared names, applied before their namespace: names, texts, tags and `_meta`
 * in the options, the state and argument transforms on the record, and a `@Complete()` of a renamed prompt
 * follows it. Every name must name a component of the hosts sharing that transforms object.
 */
export function applyHostTransforms(found: ExploredComponents, transformsOf: (host: MethodHost) => ComponentTransforms | undefined, where: string): ExploredComponents {
  if (![found.tools, found.resources, found.templates, found.prompts].some((records) => records.some((r) => transformsOf(r.host)))) return found;
  const groups = new Map<ComponentTransforms, Set<MethodHost>>();
  for (const records of [found.tools, found.resources, found.templates, found.prompts]) {
    for (const { host } of records) {
      const transforms = transformsOf(host);
      if (transforms) groups.set(transforms, (groups.get(transforms) ?? new Set()).add(host));
    }
  }
  for (const [transforms, hosts] of groups) {
    const mine = <O>(records: readonly ComponentRecord<O>[]) => records.filter((r) => hosts.has(r.host));
    const label = `${where} (the components of ${[...new Set([...hosts].map((h) => h.target.name))].join(', ')})`;
    checkTargets(transforms, { tool: mine(found.tools), prompt: mine(found.prompts), resource: [...mine(found.resources), ...mine(found.templates)] }, label, 'declared');
  }
  const of = (kind: Kind) => (record: ComponentRecord<Named>) => own(transformsOf(record.host)?.[KIND_KEYS[kind]], declaredName(record));
  return transformAll(found, of, (record, prompt) => own(transformsOf(record.host)?.prompts, prompt)?.name);
}

/**
 * The application's own transforms (`McpModule.forRoot({ transforms })`), keyed by served names (namespaces
 * applied), applied last. At bootstrap (`strict`) every name must name a component; components added later
 * (`app.tools.add()`) take the transforms their served names match.
 */
export function applyRootTransforms(found: ExploredComponents, transforms: ComponentTransforms | undefined, strict: boolean): ExploredComponents {
  if (!transforms) return found;
  if (strict) checkTargets(transforms, { tool: found.tools, prompt: found.prompts, resource: [...found.resources, ...found.templates] }, 'McpModule.forRoot({ transforms })', 'served');
  const of = (kind: Kind) => (record: ComponentRecord<Named>) => own(transforms[KIND_KEYS[kind]], declaredName(record));
  return transformAll(found, of, (_record, prompt) => own(transforms.prompts, prompt)?.name);
}

function transformAll(
  found: ExploredComponents,
  of: (kind: Kind) => (record: ComponentRecord<Named>) => ComponentTransform | ToolTransform | undefined,
  promptRename: (record: ComponentRecord<unknown>, prompt: string) => string | undefined,
): ExploredComponents {
  return {
    tools: found.tools.map((r) => transformed(r, of('tool')(r))),
    resources: found.resources.map((r) => transformed(r, of('resource')(r))),
    templates: found.templates.map((r) => transformed(r, of('resource')(r))),
    lists: found.lists,
    prompts: found.prompts.map((r) => transformed(r, of('prompt')(r))),
    completers: found.completers.map((r) => {
      if (!('prompt' in r.options)) return r;
      const renamed = promptRename(r, r.options.prompt);
      return renamed === undefined ? r : { ...r, options: { ...r.options, prompt: renamed } };
    }),
  };
}

function transformed<O extends Named>(record: ComponentRecord<O>, transform: ToolTransform | undefined): ComponentRecord<O> {
  if (!transform) return record;
  const { options } = record;
  const tags = transform.tags ? [...new Set([...(options.tags ?? []), ...transform.tags])] : options.tags;
  const changed = {
    ...options,
    ...(transform.name !== undefined ? { name: transform.name } : {}),
    ...(transform.title !== undefined ? { title: transform.title } : {}),
    ...(transform.description !== undefined ? { description: transform.description } : {}),
    ...(tags !== undefined ? { tags } : {}),
    ...(transform.meta !== undefined ? { _meta: { ...options._meta, ...transform.meta } } : {}),
  };
  const before = record.transform;
  const args = transform.args ? [...(before?.args ?? []), transform.args] : before?.args;
  const enabled = transform.enabled ?? before?.enabled;
  return { ...record, options: changed, transform: { ...(enabled !== undefined ? { enabled } : {}), ...(args ? { args } : {}) } };
}

/** The transform of `name` (own keys only: `toString` names no transform). */
function own<T>(map: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return map && Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}

function declaredName(record: ComponentRecord<Named>): string {
  return record.options.name ?? record.method;
}

/** Every name of `transforms` names one of `records` (of its kind), or the bootstrap fails naming it, the closest name and the fix. */
function checkTargets(
  transforms: ComponentTransforms,
  records: Record<Kind, readonly ComponentRecord<Named>[]>,
  where: string,
  names: 'declared' | 'served',
): void {
  for (const kind of ['tool', 'prompt', 'resource'] as const) {
    const known = records[kind].map(declaredName);
    for (const key of Object.keys(transforms[KIND_KEYS[kind]] ?? {})) {
      if (known.includes(key)) continue;
      const close = closestName(key, known);
      const what = kind === 'resource' ? 'resource or resource template' : kind;
      throw new BootstrapError(
        BootstrapErrorCode.UnknownTransformTarget,
        `Cannot apply ${where}: transforms.${KIND_KEYS[kind]} names '${key}', and no ${what} is ${names} under that name${close ? ` (did you mean '${close}'?)` : ''}.\n` +
          `Fix: key it by one of the ${names} names: ${known.length > 0 ? known.map((n) => `'${n}'`).join(', ') : `(there is no ${what})`}` +
          (names === 'served'
            ? ` (forRoot transforms name components as clients see them, namespaces included; a proxied server's components arrive after the bootstrap: transform them with McpModule.proxy({ transforms }), by the remote's names).`
            : ` (the names the decorators give, before the namespace).`),
      );
    }
  }
}
