import { UriTemplate } from '@modelcontextprotocol/server';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { UriMatcher } from '../resources';

/** RFC 6570 matching for resource templates, on the SDK's UriTemplate. */
export function uriMatcher(template: string, owner: string): UriMatcher {
  let compiled: UriTemplate;
  try {
    compiled = new UriTemplate(template);
  } catch (error) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidResourceUri,
      `Cannot register ${owner}: '${template}' is not a valid RFC 6570 URI template ` +
        `(${error instanceof Error ? error.message : String(error)}).\n` +
        `Fix: write variables as {name}, e.g. 'users://{id}/profile'.`,
      { cause: error },
    );
  }
  return {
    variableNames: compiled.variableNames,
    match: (uri) => compiled.match(uri) as Record<string, string | string[]> | null,
  };
}
