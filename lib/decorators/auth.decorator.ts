import { legacyOnly } from './legacy-only';
import type { McpAuth } from '../interfaces';
import { definePublic, defineScopes } from '../metadata';
import type { ClassOrMethodDecorator } from './enhancers.decorator';
import { createParamDecorator } from './param.decorator';

/**
 * The OAuth scopes a caller's token must grant to see and use a component (tool, resource, template, prompt),
 * on a class (every component method of it) or a method; class and method scopes add up. Lists show the
 * component only to callers with every scope; over HTTP a call without them is answered 403
 * `insufficient_scope` naming them, so the client can ask for them (step-up).
 *
 * @example
 * @Scopes('notes:write')
 * @Tool() deleteNote(@Param() id: string) { … }
 */
export function Scopes(...scopes: string[]): ClassOrMethodDecorator {
  return ((target: object, key?: string | symbol) => {
    legacyOnly('@Scopes()', key);
    // Checked at bootstrap (scope syntax), where the message can name the class and method.
    defineScopes(target, key === undefined ? undefined : String(key), scopes);
  }) as ClassOrMethodDecorator;
}

/**
 * A component that needs no scope, whatever its class's `@Scopes()` say. On an endpoint with `auth`, a caller
 * still needs a valid token (and the server's `requiredScopes`); `@Public()` lifts only the scopes.
 *
 * @example
 * @Scopes('notes:read')
 * class NoteTools {
 *   @Public() @Tool() help() { … }
 * }
 */
export function Public(): ClassOrMethodDecorator {
  return ((target: object, key?: string | symbol) => {
    legacyOnly('@Public()', key);
    definePublic(target, key === undefined ? undefined : String(key));
  }) as ClassOrMethodDecorator;
}

/**
 * The verified identity of the caller (`McpAuth`), or one field of it; undefined where the request has
 * none. Built with `createParamDecorator`, like your own parameter decorators.
 *
 * @example
 * @Tool() whoami(@CurrentAuth('subject') subject: string) { return subject; }
 */
export const CurrentAuth = createParamDecorator<keyof McpAuth | undefined, unknown>((field, context) =>
  field === undefined ? context.auth : context.auth?.[field],
);
