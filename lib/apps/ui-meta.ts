import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from '../constants';
import type { ToolUiOptions } from '../interfaces/tool-options.interface';

/** The ext-apps key older hosts read the view URI from (deprecated there, still sent by `registerAppTool`). */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** `@Tool({ ui })` in its full form. */
export function toolUiOptions(ui: string | ToolUiOptions): ToolUiOptions {
  return typeof ui === 'string' ? { resourceUri: ui } : ui;
}

/**
 * A tool's `_meta` with its view: `ui.resourceUri` (and `ui.visibility`), plus the flat `ui/resourceUri` key
 * hosts built before `_meta.ui` still read, as ext-apps' `registerAppTool` sends both. Built once per tool.
 */
export function withToolUi(meta: Record<string, unknown> | undefined, ui: string | ToolUiOptions | undefined): Record<string, unknown> | undefined {
  if (ui === undefined) return meta;
  const { resourceUri, visibility } = toolUiOptions(ui);
  const own = typeof meta?.ui === 'object' && meta.ui !== null ? (meta.ui as Record<string, unknown>) : {};
  return { ...meta, ui: { ...own, resourceUri, ...(visibility ? { visibility: [...visibility] } : {}) }, [LEGACY_RESOURCE_URI_KEY]: resourceUri };
}

/** Whether a listed resource is an MCP Apps view (a `ui://` URI served as `text/html;profile=mcp-app`). */
export function isUiResource(descriptor: { readonly uri: string; readonly mimeType?: string }): boolean {
  return descriptor.mimeType === MCP_APP_MIME_TYPE && descriptor.uri.startsWith('ui://');
}

/**
 * The `_meta` a view's read content carries: its `_meta.ui`, where hosts look first (ext-apps: the
 * `resources/read` content item, with the `resources/list` entry as fallback). Undefined for other resources.
 */
export function uiContentMeta(descriptor: { readonly uri: string; readonly mimeType?: string; readonly _meta?: Record<string, unknown> }): Record<string, unknown> | undefined {
  const ui = descriptor._meta?.ui;
  return isUiResource(descriptor) && ui !== undefined ? { ui } : undefined;
}

/** `capabilities.extensions` of a server with views (the same settings shape clients declare). */
export const UI_EXTENSIONS: Readonly<Record<string, object>> = Object.freeze({
  [MCP_APPS_EXTENSION]: Object.freeze({ mimeTypes: Object.freeze([MCP_APP_MIME_TYPE]) }),
});
