/**
 * Every message the built-ins produce. Texts the model reads say what happened and what to do next; texts
 * for the developer open with "Cannot …", then the cause and the fix.
 */

/** A wait as a person says it: `45 s`, `3 min`, `2 h` (always at least 1 s, rounded up). */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 120) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.ceil(s / 3600)} h`;
}

const KIND_WORDS: Record<string, string> = {
  tool: 'tool',
  resource: 'resource',
  'resource-template': 'resource template',
  'resource-list': 'resource list',
  prompt: 'prompt',
  completion: 'completion',
};

/** `Rate limit exceeded for tool 'forecast': try again in 2 s.` */
export function rateLimitExceededMessage(kind: string, name: string, retryAfterMs: number): string {
  return `Rate limit exceeded for ${KIND_WORDS[kind] ?? kind} '${name}': try again in ${formatWait(retryAfterMs / 1000)}.`;
}

/** A constructor option that cannot work. */
export function invalidOptionMessage(owner: string, option: string, got: unknown, rule: string, example: string): string {
  return (
    `Cannot create ${owner}: the option '${option}' must be ${rule}, got ${describeValue(got)}.\n` +
    `Fix: pass it, e.g. new ${owner}(${example}).`
  );
}

/** Two options of which exactly one must be given. */
export function exactlyOneMessage(owner: string, a: string, b: string, both: boolean, example: string): string {
  return `Cannot create ${owner}: give exactly one of the options '${a}' and '${b}', got ${both ? 'both' : 'neither'}.\nFix: pass one, e.g. new ${owner}(${example}).`;
}

export function openTelemetryMissingMessage(): string {
  return (
    `Cannot create OpenTelemetryInterceptor: the package '@opentelemetry/api' is not installed (it is an optional peer dependency of mcp-reflect).\n` +
    `Fix: npm install @opentelemetry/api, and register a tracer provider (e.g. @opentelemetry/sdk-node) to export the spans.`
  );
}

/** How an upstream failed, as the model should read it. `service` reads in a sentence: 'weather service'. */
export const upstreamMessages = {
  rateLimited: (service: string, wait: string) => `The ${service} is rate limiting requests (HTTP 429): try again in ${wait}.`,
  unavailable: (service: string, wait: string) => `The ${service} is temporarily unavailable (HTTP 503): try again in ${wait}.`,
  gatewayTimeout: (service: string, status: number, wait: string) =>
    `The ${service} timed out (HTTP ${status}): try again in ${wait}, or ask for less data at once.`,
  serverError: (service: string, status: number, wait: string) =>
    `The ${service} failed (HTTP ${status}): the fault is on its side, not in the request; try again in ${wait}.`,
  credentials: (service: string, status: number) =>
    `The ${service} refused this server's credentials (HTTP ${status}): retrying will not help; the server's operator must fix its configuration.`,
  notFound: (service: string) => `The ${service} has nothing at the address it was asked for (HTTP 404): check the arguments (a name or identifier may be wrong).`,
  rejected: (service: string, status: number) => `The ${service} rejected the request (HTTP ${status}): check the arguments before trying again.`,
  timeout: (service: string) => `The ${service} did not answer in time: try again in a moment, or ask for less data at once.`,
  aborted: (service: string) => `The request to the ${service} was aborted before it answered: try again.`,
  refused: (service: string, code: string) =>
    `The ${service} refused the connection (${code}): it may be down or restarting; try again in a minute.`,
  notResolved: (service: string) =>
    `The ${service} could not be found (ENOTFOUND: its host name did not resolve): try again later; if it keeps failing, the server's configuration is wrong.`,
  dnsAgain: (service: string) => `The ${service} could not be looked up (EAI_AGAIN, a temporary DNS failure): try again in a moment.`,
  reset: (service: string, code: string) => `The connection to the ${service} was cut (${code}): try again.`,
  unreachable: (service: string, code: string) => `The ${service} cannot be reached (${code}): the network may be down; try again later.`,
};

/** The text of `UpstreamHttpError` itself (for logs; the filter gives the model its own text). */
export function upstreamHttpMessage(service: string | undefined, status: number, statusText: string | undefined): string {
  return `${service ? `The ${service}` : 'An upstream service'} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return `a function`;
  return value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
}
