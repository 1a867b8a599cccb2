import { legacyOnly } from './legacy-only';
import { MCP_APP_MIME_TYPE } from '../constants';
import type { UiResourceOptions } from '../interfaces/tool-options.interface';
import { defineComponentMetadata, recordComponentClass } from '../metadata';
import { defineUiResourceMetadata } from '../metadata/ui.metadata';

/**
 * Declares an MCP Apps view: a `ui://` resource whose method returns the view's HTML. It is served like a
 * `@Resource()` with MIME type `text/html;profile=mcp-app` and `_meta.ui` (csp, permissions, domain,
 * prefersBorder) on its listing and on the content it reads; link a tool to it with `@Tool({ ui: uri })`.
 *
 * @example
 * @UiResource('ui://weather/view', { name: 'Weather view', prefersBorder: true })
 * view(): string { return VIEW_HTML; }
 */
export function UiResource(uri: string, options: UiResourceOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@UiResource()', propertyKey);
    recordComponentClass(target);
    const { csp, permissions, domain, prefersBorder, _meta, ...listing } = options;
    const ui = Object.fromEntries(Object.entries({ csp, permissions, domain, prefersBorder }).filter(([, value]) => value !== undefined));
    const own = typeof _meta?.ui === 'object' && _meta.ui !== null ? (_meta.ui as Record<string, unknown>) : {};
    const meta = Object.keys(ui).length > 0 ? { ..._meta, ui: { ...own, ...ui } } : _meta;
    defineComponentMetadata('resource', target, String(propertyKey), { ...listing, uri, mimeType: MCP_APP_MIME_TYPE, ...(meta ? { _meta: meta } : {}) });
    defineUiResourceMetadata(target, String(propertyKey), uri);
  };
}
