import { ErrorCode, McpReflectError } from '../errors';
import type { McpMethod, McpMiddleware, MiddlewareContext, MiddlewareHook } from '../interfaces';

const HOOKS: Record<McpMethod, keyof McpMiddleware> = {
  'tools/call': 'onCallTool',
  'tools/list': 'onListTools',
  'resources/read': 'onReadResource',
  'resources/list': 'onListResources',
  'resources/templates/list': 'onListResourceTemplates',
  'prompts/get': 'onGetPrompt',
  'prompts/list': 'onListPrompts',
  'completion/complete': 'onComplete',
  'skills/list': 'onListSkills',
  'skills/get': 'onGetSkill',
  'resources/directory/read': 'onReadDirectory',
};

/**
 * The hooks that wrap `method`, outermost first: for each middleware in registration order, its
 * `onRequest`, then its hook for the method. Computed once per method at bootstrap.
 */
export function middlewareHooks(middleware: readonly McpMiddleware[], method: McpMethod): readonly MiddlewareHook[] {
  const hooks: MiddlewareHook[] = [];
  for (const m of middleware) {
    if (typeof m.onRequest === 'function') hooks.push(m.onRequest.bind(m));
    const own = m[HOOKS[method]];
    if (typeof own === 'function') hooks.push(own.bind(m));
  }
  return hooks;
}

/** Runs the onion: each hook gets `next`, which runs the rest (with the context it is given, or the same). */
export function runMiddleware<C extends MiddlewareContext>(
  hooks: readonly MiddlewareHook[],
  context: C,
  terminal: (context: C) => Promise<unknown>,
): Promise<unknown> {
  const step = (index: number, current: C): Promise<unknown> => {
    if (index === hooks.length) return terminal(current);
    let called = false;
    return Promise.resolve(
      hooks[index](current, (changed?: MiddlewareContext) => {
        if (called) return Promise.reject(new McpReflectError(ErrorCode.MiddlewareNextTwice, `A middleware called next() twice while serving ${current.method}: call it once, and return what it returns.`));
        called = true;
        return step(index + 1, (changed as C | undefined) ?? current);
      }),
    );
  };
  return step(0, context);
}

export { HOOKS as MIDDLEWARE_HOOKS };
