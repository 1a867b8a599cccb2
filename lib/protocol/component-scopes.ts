import type { ProtocolApplication } from './protocol-application';

/** The `@Scopes()` of the component a JSON-RPC request names (a completion: of the prompt or template it completes). */
export function scopesFor(app: ProtocolApplication, message: unknown): readonly string[] | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  switch (method) {
    case 'tools/call':
      return typeof params?.name === 'string' ? app.tools.get(params.name)?.pipeline.requiredScopes : undefined;
    case 'prompts/get':
      return typeof params?.name === 'string' ? app.prompts.get(params.name)?.pipeline.requiredScopes : undefined;
    case 'resources/read':
      return typeof params?.uri === 'string' ? app.resources.pipelineFor(params.uri)?.requiredScopes : undefined;
    case 'completion/complete': {
      // Completing a prompt's or template's arguments needs what using it needs.
      const ref = params?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
      if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') return app.prompts.get(ref.name)?.pipeline.requiredScopes;
      if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') return app.resources.templates.values().find((t) => t.uriTemplate === ref.uri)?.pipeline.requiredScopes;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Whether some component of the application has `@Scopes()` (memoized per change of each catalogue). */
export function scoped(app: ProtocolApplication): boolean {
  const has = (item: { pipeline: { requiredScopes?: readonly string[] } }) => item.pipeline.requiredScopes !== undefined;
  return (
    app.tools.memo('scoped', () => app.tools.some(has)) ||
    app.prompts.memo('scoped', () => app.prompts.some(has)) ||
    app.resources.resources.memo('scoped', () => app.resources.resources.some(has)) ||
    app.resources.templates.memo('scoped', () => app.resources.templates.some(has))
  );
}
