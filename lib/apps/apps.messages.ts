/** Every message of the MCP Apps area: bootstrap errors say what is wrong, where, and how to fix it. */

export function uiSchemeMessage(uri: string, where: string): string {
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:\/*/i, '') || 'app/view';
  return (
    `Cannot register the MCP Apps view '${uri}' of ${where}: @UiResource() URIs must use the ui:// scheme (ext-apps spec, "UI Resource Format").\n` +
    `Fix: give @UiResource() a URI such as 'ui://${path}', or use @Resource() for a resource that is not a view.`
  );
}

export function toolUiSchemeMessage(tool: string, where: string, uri: string): string {
  return (
    `Cannot link tool '${tool}' (${where}) to '${uri}': @Tool({ ui }) names an MCP Apps view, whose URI starts with ui://.\n` +
    `Fix: give @Tool({ ui }) the URI of a @UiResource(), e.g. 'ui://app/view'.`
  );
}

export function unknownViewMessage(tool: string, where: string, uri: string, declared: readonly string[]): string {
  const known = declared.length > 0 ? `The application declares: ${declared.join(', ')}.` : 'The application declares no @UiResource().';
  return (
    `Cannot link tool '${tool}' (${where}) to the view '${uri}': no @UiResource() declares that URI. ${known}\n` +
    `Fix: declare the view with @UiResource('${uri}') on a method that returns its HTML (in a provider of the application), or correct @Tool({ ui }).`
  );
}

export function visibilityMessage(tool: string, where: string, visibility: unknown): string {
  return (
    `Cannot link tool '${tool}' (${where}) to its view: @Tool({ ui: { visibility } }) is ${JSON.stringify(visibility)}, ` +
    `but it must be a non-empty list of 'model' and 'app'.\n` +
    `Fix: use ['model', 'app'] (the default), ['app'] for a tool only its view calls, or ['model'].`
  );
}
