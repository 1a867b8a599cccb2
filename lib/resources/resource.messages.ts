export function resourceOwner(kind: 'resource' | 'resource template', name: string, className: string, method: string): string {
  return `${kind} '${name}' (${className}.${method})`;
}

export function duplicateResourceMessage(what: string, value: string, first: string, second: string): string {
  return (
    `Cannot register ${what} '${value}': both ${first} and ${second} declare it, and it must be unique in a server.\n` +
    `Fix: give one of them another ${what === 'resource URI' ? 'URI' : 'name'} (${what === 'resource URI' ? '@Resource(uri)' : '{ name }'}).`
  );
}

export function invalidResourceUriMessage(owner: string, uri: unknown): string {
  if (typeof uri !== 'string') {
    // @Resource({ uri: … }), as other libraries write it: the URI is the decorator's first argument.
    const given = uri !== null && typeof uri === 'object' && typeof (uri as { uri?: unknown }).uri === 'string' ? (uri as { uri: string }).uri : undefined;
    return (
      `Cannot register ${owner}: @Resource() takes the URI as its first argument, a string, and was given ${uri === null ? 'null' : typeof uri === 'object' ? 'an object' : typeof uri}.\n` +
      `Fix: write @Resource('${given ?? 'config://app'}'${given !== undefined ? ', { …the other options }' : ''}), the options second.`
    );
  }
  return (
    `Cannot register ${owner}: '${uri}' is not an absolute URI (RFC 3986), e.g. 'config://app' or 'file:///notes.txt'.\n` +
    `Fix: give @Resource() a URI with a scheme.`
  );
}

export function templateParamMismatchMessage(owner: string, name: string, variables: readonly string[]): string {
  const known = variables.length > 0 ? variables.map((v) => `{${v}}`).join(', ') : 'no variables';
  return (
    `Cannot build ${owner}: parameter '${name}' is not a variable of the URI template, which has ${known}.\n` +
    `Fix: name the parameter after a template variable (@Param('${variables[0] ?? 'id'}')), or add {${name}} to the template.`
  );
}

export function subscriptionUriTooLongMessage(length: number, max: number): string {
  return `Cannot subscribe to a URI of ${length} characters: subscription URIs are at most ${max} characters long.`;
}

export function subscriptionLimitMessage(uri: string, max: number): string {
  return (
    `Cannot subscribe to ${uri}: this session already holds ${max} subscriptions, the most one session may hold. ` +
    `Unsubscribe from one (resources/unsubscribe) to free a place.`
  );
}
