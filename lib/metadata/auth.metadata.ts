import { PUBLIC_METADATA, SCOPES_METADATA } from '../constants';
import { defineMetadata, getMetadata, getOwnMetadata } from './reflect';

/** Adds scopes to a class (`method` undefined) or one method; repeated decorators add up. */
export function defineScopes(target: object, method: string | undefined, scopes: readonly string[]): void {
  const current = getOwnMetadata<string[]>(SCOPES_METADATA, target, method) ?? [];
  defineMetadata(SCOPES_METADATA, [...new Set([...current, ...scopes])], target, method);
}

export function definePublic(target: object, method: string | undefined): void {
  defineMetadata(PUBLIC_METADATA, true, target, method);
}

/**
 * The scopes a component method needs: its class's and its own (`@Scopes()`), or none when the method (or,
 * without scopes of its own, the class) is `@Public()`. Undefined: no scope needed.
 */
export function getRequiredScopes(target: Function, method: string): readonly string[] | undefined {
  if (getMetadata<boolean>(PUBLIC_METADATA, target.prototype, method)) return undefined;
  const own = getMetadata<string[]>(SCOPES_METADATA, target.prototype, method) ?? [];
  const atClass = getMetadata<boolean>(PUBLIC_METADATA, target) ? [] : (getMetadata<string[]>(SCOPES_METADATA, target) ?? []);
  const all = [...new Set([...atClass, ...own])];
  return all.length > 0 ? all : undefined;
}
