import type { AjvIssue } from './ajv-factory';

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT: Record<string, string> = {
  email: 'email address',
  uri: 'URI',
  uuid: 'UUID',
  'date-time': 'ISO 8601 date-time (e.g. 2026-01-31T09:30:00Z)',
  date: 'date (YYYY-MM-DD)',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
};

/**
 * One line per failed constraint, each with its path: `days: must not be greater than 14`. `subject` names
 * the top-level keys: tool arguments, or properties of an output.
 */
export function formatIssues(issues: readonly AjvIssue[], subject: 'argument' | 'property' = 'argument'): string[] {
  const lines = issues.map((issue) => formatIssue(issue, subject)).filter((line): line is string => line !== undefined);
  return cappedIssues([...new Set(lines)]);
}

/** How many issues an answer names: a client that sends 100,000 wrong items gets the first ones and a count. */
export const MAX_ISSUES = 20;

/**
 * At most {@link MAX_ISSUES} issue lines, then how many more: what a client's arguments make the server say is
 * bounded, whatever their size (a 400 KB array of wrong items would otherwise answer with megabytes of text).
 */
export function cappedIssues(lines: readonly string[]): string[] {
  return lines.length <= MAX_ISSUES ? [...lines] : [...lines.slice(0, MAX_ISSUES), `and ${lines.length - MAX_ISSUES} more issues`];
}

function formatIssue(issue: AjvIssue, subject: string): string | undefined {
  const path = toPath(issue.instancePath);
  const at = (suffix: string) => (path ? `${path}: ${suffix}` : suffix);
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return `${join(path, p.missingProperty)}: is required`;
    case 'additionalProperties':
      return `${join(path, p.additionalProperty)}: is not an accepted ${path ? 'property' : subject}`;
    case 'type':
      return at(`must be ${String(p.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`);
    case 'minLength':
      return at(`must be at least ${p.limit} character${p.limit === 1 ? '' : 's'} long`);
    case 'maxLength':
      return at(`must be at most ${p.limit} character${p.limit === 1 ? '' : 's'} long`);
    case 'minimum':
      return at(`must not be less than ${p.limit}`);
    case 'maximum':
      return at(`must not be greater than ${p.limit}`);
    case 'exclusiveMinimum':
      return at(`must be greater than ${p.limit}`);
    case 'exclusiveMaximum':
      return at(`must be less than ${p.limit}`);
    case 'enum':
      return at(`must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
    case 'const':
      return at(`must be ${JSON.stringify(p.allowedValue)}`);
    case 'format':
      return at(`must be a valid ${FORMAT[p.format] ?? p.format}`);
    case 'pattern':
      return at(`must match the pattern ${p.pattern}`);
    case 'minItems':
      return at(`must contain at least ${p.limit} item${p.limit === 1 ? '' : 's'}`);
    case 'maxItems':
      return at(`must contain at most ${p.limit} item${p.limit === 1 ? '' : 's'}`);
    case 'uniqueItems':
      return at(`must not contain duplicate items (items ${Math.min(p.i, p.j)} and ${Math.max(p.i, p.j)} are equal)`);
    case 'anyOf':
    case 'oneOf':
      return undefined; // the branch errors above already say what each alternative needed
    default:
      return at(issue.message ?? `failed the '${issue.keyword}' rule`);
  }
}

/** `/items/0/qty` → `items[0].qty` */
function toPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
