import { legacyOnly } from './legacy-only';
import type { ResourceOptions, ResourceTemplateOptions } from '../interfaces';
import { defineComponentMetadata, recordComponentClass } from '../metadata';

/**
 * Exposes a method as a resource at a fixed URI. Strings are sent as text, bytes as a base64 blob, objects as
 * JSON; return a `ResourceResult` for full control.
 *
 * @example
 * @Resource('config://app', { mimeType: 'application/json', description: 'App settings' })
 * settings() { return { theme: 'dark' }; }
 */
export function Resource(uri: string, options: ResourceOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Resource()', propertyKey);
    recordComponentClass(target);
    defineComponentMetadata('resource', target, String(propertyKey), { ...options, uri });
  };
}

/**
 * Exposes a method as a resource template (RFC 6570). Template variables bind to `@Param()` parameters, with
 * the same typing and validation as tool arguments.
 *
 * @example
 * @ResourceTemplate('users://{id}/profile', { mimeType: 'application/json' })
 * profile(@Param('id', { type: 'integer' }) id: number) { return this.users.find(id); }
 */
export function ResourceTemplate(uriTemplate: string, options: ResourceTemplateOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@ResourceTemplate()', propertyKey);
    recordComponentClass(target);
    defineComponentMetadata('resource-template', target, String(propertyKey), { ...options, uriTemplate });
  };
}

/**
 * Marks a method that lists resources computed at request time (for instance the concrete URIs of a
 * template). Its entries (`{ uri, name, title?, description?, mimeType? }`) follow the static resources in
 * `resources/list`.
 *
 * @example
 * @ResourceList()
 * users() { return this.users.all().map((u) => ({ uri: `users://${u.id}/profile`, name: u.name })); }
 */
export function ResourceList(): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@ResourceList()', propertyKey);
    recordComponentClass(target);
    defineComponentMetadata('resource-list', target, String(propertyKey), {});
  };
}
