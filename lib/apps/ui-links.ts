import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ToolOptions } from '../interfaces/tool-options.interface';
import { getUiResourceUri } from '../metadata/ui.metadata';
import { toolUiSchemeMessage, uiSchemeMessage, unknownViewMessage, visibilityMessage } from './apps.messages';
import { toolUiOptions } from './ui-meta';

/** The explored methods the check reads (the shape of `ExploredComponents`' records). */
interface Explored {
  readonly tools: readonly { readonly host: { readonly target: Function }; readonly method: string; readonly options: ToolOptions }[];
  readonly resources: readonly { readonly host: { readonly target: Function }; readonly method: string; readonly options: { readonly uri: string } }[];
}

const VISIBILITY = new Set(['model', 'app']);

/**
 * Checks MCP Apps declarations once, at bootstrap: every `@UiResource()` URI is `ui://`, and every
 * `@Tool({ ui })` names a view that a `@UiResource()` of the application declares, with a valid visibility.
 */
export function checkUiLinks(found: Explored): void {
  const views = new Set<string>();
  for (const { host, method, options } of found.resources) {
    if (getUiResourceUri(host.target, method) === undefined) continue;
    const { uri } = options; // as served (a namespaced module's view has its namespace)
    if (!uri.startsWith('ui://')) throw new BootstrapError(BootstrapErrorCode.InvalidResourceUri, uiSchemeMessage(uri, `${host.target.name}.${method}`));
    views.add(uri);
  }
  for (const { host, method, options } of found.tools) {
    if (options.ui === undefined) continue;
    const tool = options.name ?? method;
    const where = `${host.target.name}.${method}`;
    const { resourceUri, visibility } = toolUiOptions(options.ui);
    if (typeof resourceUri !== 'string' || !resourceUri.startsWith('ui://')) {
      throw new BootstrapError(BootstrapErrorCode.InvalidOption, toolUiSchemeMessage(tool, where, String(resourceUri)));
    }
    if (!views.has(resourceUri)) throw new BootstrapError(BootstrapErrorCode.InvalidOption, unknownViewMessage(tool, where, resourceUri, [...views]));
    if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || !visibility.every((v) => VISIBILITY.has(v)))) {
      throw new BootstrapError(BootstrapErrorCode.InvalidOption, visibilityMessage(tool, where, visibility));
    }
  }
}
