import { UI_RESOURCE_METADATA } from '../constants';
import { defineMetadata, getMetadata } from './reflect';

/**
 * Marks one `@UiResource()` method (MCP Apps) with the URI it declares. The resource itself is recorded like a
 * `@Resource()`; this mark is what the bootstrap checks (`ui://` scheme, tools linking to it) read.
 */
export function defineUiResourceMetadata(prototype: object, method: string, uri: string): void {
  defineMetadata(UI_RESOURCE_METADATA, uri, prototype, method);
}

/** The URI a `@UiResource()` method declares, or undefined for any other method. */
export function getUiResourceUri(target: Function, method: string): string | undefined {
  return getMetadata<string>(UI_RESOURCE_METADATA, target.prototype, method);
}
