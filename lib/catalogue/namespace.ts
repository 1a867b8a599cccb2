/**
 * Namespaces (`McpModule.forFeature({ namespace })`): how a namespaced module's components are named where
 * clients see them. Tools, prompts and the names of resources and templates take `<namespace>_<name>` (the
 * separator `_` is valid in tool names of both protocol eras); resource URIs and URI templates take the
 * namespace as their first path segment after the scheme: `weather://forecast/today` served in namespace
 * `eu` is `weather://eu/forecast/today`.
 */

/** The separator between a namespace and a name. */
export const NAMESPACE_SEPARATOR = '_';

/** What a namespace may be: letters, digits, `-` and `.`, starting with a letter or digit (valid in names and URIs). */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;

/** `weather` + `forecast` → `weather_forecast`. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}${NAMESPACE_SEPARATOR}${name}`;
}

const HIERARCHICAL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;

/**
 * `weather://forecast/today` + `eu` → `weather://eu/forecast/today` (templates too: `users://{id}` →
 * `users://eu/{id}`); undefined when the URI has no `scheme://` form to put a namespace in.
 */
export function namespacedUri(namespace: string, uri: string): string | undefined {
  const match = HIERARCHICAL.exec(uri);
  return match ? `${match[1]}://${namespace}/${match[2]}` : undefined;
}
