import { SCOPE_TOKEN } from '../context';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { MethodHost } from '../invocation';
import { getRequiredScopes } from '../metadata';

/**
 * The scopes `method` of `component` needs (`@Scopes()`, or a provider's `scopes`), each an OAuth scope-token
 * (RFC 6749 §3.3), else the bootstrap fails.
 */
export function checkedScopes(component: MethodHost, method: string): readonly string[] | undefined {
  const { target } = component;
  const scopes = component.provided ? component.provided.get(method)?.requiredScopes : getRequiredScopes(target, method);
  const bad = scopes?.find((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidScope,
      `Cannot use the scope ${JSON.stringify(bad)} in @Scopes() on ${target.name}.${method} (or its class).\n` +
        `Cause: an OAuth scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3).\n` +
        `Fix: give each scope as its own argument, e.g. @Scopes('notes:read', 'notes:write').`,
    );
  }
  return scopes;
}
