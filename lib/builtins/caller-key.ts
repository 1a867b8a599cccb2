import { createHash } from 'node:crypto';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ExecutionContext } from '../interfaces';
import { exactlyOneMessage, invalidOptionMessage } from './builtins.messages';

/** How the built-ins that count or cache per caller tell callers apart. */
export type CallerScope = 'session' | 'client' | 'subject';

/**
 * The caller under `scope`: `subject` is the verified auth's `subject` (or `clientId`), falling back to the
 * session; `client` is the name the client gave at initialize (self-declared, so not a security boundary);
 * `session` is the transport session. stdio and in-memory connections have no session id: they are `local`
 * (one client per process). Undefined when the caller cannot be told apart from others: HTTP without a
 * session (stateless) and without an authenticated subject.
 */
export function callerOf(context: ExecutionContext, scope: CallerScope): string | undefined {
  if (scope === 'client') return `client:${context.context.client.name ?? ''}`;
  if (scope === 'subject') {
    const subject = context.auth?.subject ?? context.auth?.clientId;
    if (typeof subject === 'string' && subject !== '') return `subject:${subject}`;
  }
  if (context.sessionId !== undefined) return `session:${context.sessionId}`;
  return context.context.headers === undefined ? 'local' : undefined;
}

/** Keys filled from what a client sends stay small: anything longer than 200 characters is hashed. */
export function boundedKey(text: string): string {
  return text.length <= 200 ? `=${text}` : `#${createHash('sha256').update(text).digest('base64url')}`;
}

/** JSON with the keys of every object sorted, so `{a, b}` and `{b, a}` are one key; undefined when not JSON. */
export function stableJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value ?? null, (_key, v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    );
  } catch {
    return undefined; // a cycle or a BigInt: no key, so no sharing
  }
}

/** Checks a numeric option at construction, with a message that names the class, the option and a fix. */
export function checkNumber(
  owner: string,
  option: string,
  value: unknown,
  rule: { min: number; exclusive?: boolean; integer?: boolean },
  example: string,
): number {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (rule.exclusive ? value > rule.min : value >= rule.min) &&
    (!rule.integer || Number.isInteger(value));
  if (!ok) {
    const what = `${rule.integer ? 'an integer' : 'a number'} ${rule.exclusive ? 'greater than' : 'of at least'} ${rule.min}`;
    throw new BootstrapError(BootstrapErrorCode.InvalidOption, invalidOptionMessage(owner, option, value, what, example));
  }
  return value as number;
}

/** Throws the same kind of error for an option that is not one of the accepted values. */
export function invalidOption(owner: string, option: string, value: unknown, rule: string, example: string): never {
  throw new BootstrapError(BootstrapErrorCode.InvalidOption, invalidOptionMessage(owner, option, value, rule, example));
}

/** Requires exactly one of two options. */
export function checkExactlyOne(owner: string, a: string, aValue: unknown, b: string, bValue: unknown, example: string): void {
  if ((aValue === undefined) === (bValue === undefined)) {
    throw new BootstrapError(BootstrapErrorCode.InvalidOption, exactlyOneMessage(owner, a, b, aValue !== undefined, example));
  }
}
