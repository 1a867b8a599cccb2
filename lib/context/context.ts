import { ErrorCode, RequestError, RpcCode, ToolError } from '../errors';
import type { McpAuth, UpstreamTokens } from './auth';
import { isModernRevision } from './protocol-era';
import type { Answers, Question } from './ask';
import type { ElicitResult, InputOptions, SampleOptions, SamplingMessage, SamplingResult } from './inputs';
import { InputRequiredSignal, type InputSpec, type InteractionChannel } from './interaction';
import { progressParams, progressUpdate, type ProgressUpdate } from './progress';
import { UserState, type StateBinding } from '../state';
import type { ContextLogger, LogLevel } from './context-logger';

export type { ContextLogger, LogLevel };

/**
 * What the protocol layer provides for one request. The Context is built on it, so nothing here depends on
 * the SDK.
 */
export interface RequestChannel {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly sessionId: string | undefined;
  readonly progressToken: string | number | undefined;
  /** The client as it introduced itself (initialize, or the 2026-07-28 per-request envelope). */
  readonly client?: ClientInfo;
  /** The protocol revision this request is served on. */
  readonly protocolVersion?: string;
  /** How the request arrived: over HTTP, or a stdio connection; undefined for other transports (in memory). */
  readonly transport?: McpTransportKind;
  notify(method: string, params: Record<string, unknown>): Promise<void>;
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Tells subscribed sessions that a resource changed. */
  resourceUpdated?(uri: string): Promise<void>;
  /** Elicitation, sampling, roots and own-resource reads (absent where no request can carry them). */
  readonly interaction?: InteractionChannel;
  /** The verified identity of the caller, when it has one. */
  readonly auth?: McpAuth;
  /** The HTTP request headers (lower-case names), when the request came over HTTP. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Who the caller is for the per-client bounds, as the HTTP endpoint counts it (`clientKey`'s answer, else the
   * connection's remote address); undefined where there is none (stdio, in memory, a handler given no address).
   */
  readonly clientKey?: string;
  /** The request's `_meta` as the client sent it (progressToken, a W3C `traceparent`, …). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Where `ctx.state` lives and whose it is (absent where no call is served). */
  readonly state?: StateBinding;
  /** Turns the call into a task now (`@Tool({ task: { start: 'on-demand' } })`); false where it cannot be one. */
  startTask?(): Promise<boolean>;
}

/** The transports a request can arrive on, as the Context names them. */
export type McpTransportKind = 'stdio' | 'http';

/** Who is calling: the client's name, version and declared capabilities. */
export interface ClientInfo {
  readonly name?: string;
  readonly version?: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/**
 * The request a tool is serving. Inject it with `@Ctx()`; it never appears in the input schema.
 *
 * @example
 * @Tool()
 * async crunch(@Param() n: number, @Ctx() ctx: Context) {
 *   await ctx.log.info(`crunching ${n}`);
 *   await ctx.reportProgress(50, 100, 'half way');
 *   if (ctx.signal.aborted) throw new ToolError('cancelled');
 * }
 */
export class Context {
  private logger?: ContextLogger;
  private lastProgress = Number.NEGATIVE_INFINITY;
  /** Counts the inputs asked for in this run, so a re-entered call asks again under the same keys. */
  private inputs = 0;
  /** The last input request raised (and, unless it was swallowed, thrown out of the method). */
  private asked?: InputRequiredSignal;
  private userState?: UserState;

  /** @internal Built by the library for each call; a component gets it through `@Ctx()`. */
  constructor(private readonly channel: RequestChannel) {}

  /** Log messages for the client (built on first use: most calls never log). */
  get log(): ContextLogger {
    if (this.logger) return this.logger;
    const channel = this.channel;
    const send = (level: LogLevel) => (data: unknown, logger?: string) => channel.log(level, data, logger);
    return (this.logger = {
      debug: send('debug'),
      info: send('info'),
      notice: send('notice'),
      warning: send('warning'),
      error: send('error'),
      critical: send('critical'),
      alert: send('alert'),
      emergency: send('emergency'),
    });
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.channel.signal;
  }

  /**
   * The caller's state, kept between its calls (docs/state.md): its 2025-11-25 session's, else its
   * verified identity's (subject and client), else its stdio or in-memory connection's. JSON values with a TTL,
   * bounded per caller in bytes; in memory by default, in Redis across instances (`RedisStateStore`).
   * @example
   * const visits = ((await ctx.state.get<number>('visits')) ?? 0) + 1;
   * await ctx.state.set('visits', visits);
   */
  get state(): UserState {
    return (this.userState ??= new UserState(this.channel.state));
  }

  /** The JSON-RPC id of the request. */
  get requestId(): string | number {
    return this.channel.requestId;
  }

  /** The transport session (HTTP), or undefined (stdio, in-memory). */
  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }

  /** The client: name, version and the capabilities it declared. */
  get client(): ClientInfo {
    return this.channel.client ?? { capabilities: {} };
  }

  /**
   * The verified identity of the caller (subject, client id, scopes, expiry, claims): from the bearer token over
   * HTTP with `auth`, or the `auth` given to a stdio or in-memory connection; undefined otherwise.
   */
  get auth(): McpAuth | undefined {
    return this.channel.auth;
  }

  /**
   * The upstream provider's tokens of the signed-in user (GitHub's, Google's…), when this server is the
   * authorization server (`auth.server`) and keeps them: to call the upstream API on the user's behalf.
   * Undefined otherwise. Never send the MCP access token (`ctx.auth.token`) upstream.
   * @example
   * const github = await ctx.upstreamTokens();
   * const repos = await fetch('https://api.github.com/user/repos', { headers: { authorization: `Bearer ${github?.accessToken}` } });
   */
  upstreamTokens(): Promise<UpstreamTokens | undefined> {
    return this.auth?.upstreamTokens?.() ?? Promise.resolve(undefined);
  }

  /** The HTTP request headers (lower-case names), when the request came over HTTP; undefined on stdio. */
  get headers(): Readonly<Record<string, string>> | undefined {
    return this.channel.headers;
  }

  /**
   * @internal Who the caller is for per-client bounds (forwarding layers bound their calls per caller): the
   * HTTP endpoint's key (`clientKey`'s answer, else the remote address); undefined on stdio and in memory.
   */
  get clientKey(): string | undefined {
    return this.channel.clientKey;
  }

  /** The request's `_meta` (progressToken, a W3C `traceparent` for tracing, …); undefined when it had none. */
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.channel.meta;
  }

  /** The protocol revision of this request, e.g. '2025-11-25' or '2026-07-28'. */
  get protocolVersion(): string | undefined {
    return this.channel.protocolVersion;
  }

  /** How the request arrived: `'http'` or `'stdio'`; undefined for other transports (in memory, one you gave `app.connect()`). */
  get transport(): McpTransportKind | undefined {
    return this.channel.transport;
  }

  /**
   * Asks the user to fill in a form built from a DTO class (flat primitives, enums, defaults from property
   * initialisers). Resolves with a validated instance when the user accepts.
   *
   * A tool that elicits may be re-entered: on 2026-07-28 the answer arrives with a retried request, and on
   * 2025 eras the SDK asks the client and runs the method again. Everything before the `await` runs once per
   * round, so keep side effects after the last elicitation.
   *
   * @example
   * const answer = await ctx.elicit('Who should we invite?', Invitee);
   * if (answer.action === 'accept') invite(answer.content.email);
   */
  async elicit<T extends object>(message: string, dto: new () => T, options: InputOptions = {}): Promise<ElicitResult<T>> {
    const interaction = this.interaction('elicitation', 'elicitation');
    const form = interaction.form(dto);
    const key = this.keyOf(options, 'elicit');
    const answer = interaction.response(key) as { action?: string; content?: unknown } | undefined;
    if (!answer) throw this.raise(key, { kind: 'elicit', message, requestedSchema: form.requestedSchema });
    if (answer.action !== 'accept') return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
    const parsed = form.parse(answer.content ?? {});
    if (!parsed.ok) throw new InvalidAnswerError(`The answer to "${message}" is not valid: ${parsed.issues.join('; ')}`);
    return { action: 'accept', content: parsed.value as T };
  }

  /** Asks the user to complete an interaction at a URL (URL-mode elicitation: sign-in, payment). */
  async elicitUrl(message: string, url: string, options: InputOptions = {}): Promise<{ action: 'accept' | 'decline' | 'cancel' }> {
    const interaction = this.interaction('elicitation', 'URL elicitation', (caps) => typeof caps.url === 'object');
    const key = this.keyOf(options, 'elicit-url');
    const answer = interaction.response(key) as { action?: string } | undefined;
    if (!answer) throw this.raise(key, { kind: 'elicitUrl', message, url });
    return { action: answer.action === 'accept' ? 'accept' : answer.action === 'decline' ? 'decline' : 'cancel' };
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`); resolves with the client's result.
   *
   * @example
   * const reply = await ctx.sample('Summarise in one line: ' + text, { maxTokens: 100 });
   */
  async sample(input: string | SamplingMessage[], options: SampleOptions = {}): Promise<SamplingResult> {
    const interaction = this.interaction('sampling', 'sampling');
    const key = this.keyOf(options, 'sample');
    const answer = interaction.response(key);
    if (answer) return answer as SamplingResult;
    const messages: SamplingMessage[] =
      typeof input === 'string' ? [{ role: 'user', content: { type: 'text', text: input } }] : input;
    const { maxTokens = 1000, key: _key, ...rest } = options;
    throw this.raise(key, { kind: 'sample', params: { messages, maxTokens, ...rest } });
  }

  /** The client's roots (directories or files it exposes). */
  async listRoots(options: InputOptions = {}): Promise<{ uri: string; name?: string }[]> {
    const interaction = this.interaction('roots', 'roots');
    const key = this.keyOf(options, 'roots');
    const answer = interaction.response(key) as { roots?: { uri: string; name?: string }[] } | undefined;
    if (!answer) throw this.raise(key, { kind: 'roots' });
    return answer.roots ?? [];
  }

  /**
   * Asks several things at once (SEP-2322): on 2026-07-28 one `input_required` result carries every request
   * that is not answered yet, and the retry answers them together; on 2025 eras the SDK sends them to the
   * client and re-enters the method with every answer. Each property name is the key of its request.
   * Resolves with each answer under its key. When a question cannot be asked (the client lacks its
   * capability), its error is thrown as its own method would throw it, and nothing is asked.
   *
   * @example
   * const { user_name, greeting, client_roots } = await ctx.ask({
   *   user_name: Ask.elicit('What is your name?', UserName),
   *   greeting: Ask.sample('Write a one-line greeting', { maxTokens: 50 }),
   *   client_roots: Ask.roots(),
   * });
   */
  async ask<Q extends Record<string, Question<unknown>>>(questions: Q): Promise<Answers<Q>> {
    const keys = Object.keys(questions);
    const settled = await Promise.allSettled(keys.map((key) => questions[key].ask(this, key)));
    const pending: InputRequiredSignal[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled') continue;
      if (!(outcome.reason instanceof InputRequiredSignal)) throw outcome.reason;
      pending.push(outcome.reason);
    }
    if (pending.length > 0) {
      this.asked = new InputRequiredSignal(pending[0].key, pending[0].spec, pending.flatMap((signal) => signal.requests));
      throw this.asked;
    }
    return Object.fromEntries(keys.map((key, i) => [key, (settled[i] as PromiseFulfilledResult<unknown>).value])) as Answers<Q>;
  }

  /**
   * @internal The input request this call raised, when the method still returned: a `try/catch` around
   * `ctx.elicit()` (or `sample`, `listRoots`, `elicitUrl`) swallowed it.
   */
  get swallowedInput(): InputRequiredSignal | undefined {
    return this.asked;
  }

  /**
   * @internal For forwarding layers (a proxied remote server): asks the client for what another server asked
   * for, under that server's keys, checking the client's capabilities as `elicit()`, `sample()` and
   * `listRoots()` do; `carry` is sealed with the round and read back with `carriedInput` when the call is
   * re-entered with the answers (`inputAnswer(key)`).
   */
  relayInputs(requests: readonly { readonly key: string; readonly spec: InputSpec }[], carry: string): InputRequiredSignal {
    for (const { spec } of requests) {
      if (spec.kind === 'elicit') this.interaction('elicitation', 'elicitation');
      else if (spec.kind === 'elicitUrl') this.interaction('elicitation', 'URL elicitation', (caps) => typeof caps.url === 'object');
      else this.interaction(spec.kind === 'sample' ? 'sampling' : 'roots', spec.kind === 'sample' ? 'sampling' : 'roots');
    }
    const [first] = requests;
    this.asked = new InputRequiredSignal(first.key, first.spec, requests, carry);
    this.channel.interaction?.raised?.(this.asked);
    return this.asked;
  }

  /** @internal What the round before carried (`relayInputs`), when this call is re-entered with answers. */
  get carriedInput(): string | undefined {
    return this.channel.interaction?.carried?.();
  }

  /** @internal The client's raw answer for `key` in this round (forwarding layers hand it on as it is). */
  inputAnswer(key: string): unknown {
    return this.channel.interaction?.response(key);
  }

  /** The key of an input request: the caller's, or the next of this kind (`elicit-0`, `sample-1`, …). */
  private keyOf(options: InputOptions, kind: string): string {
    if (options.key === undefined) return `${kind}-${this.inputs++}`;
    if (typeof options.key !== 'string' || options.key === '') {
      throw new InvalidAnswerError(`Cannot ask the client with the key ${JSON.stringify(options.key)}: a key is a non-empty string, unique within the call.`);
    }
    return options.key;
  }

  private raise(key: string, spec: InputSpec): InputRequiredSignal {
    this.asked = new InputRequiredSignal(key, spec);
    this.channel.interaction?.raised?.(this.asked);
    return this.asked;
  }

  /**
   * Turns this call into a task now, in a tool with `@Tool({ task: { support, start: 'on-demand' } })` called
   * as a task: the client gets the task at once, and the method goes on as it (docs/tasks.md). Ask for input
   * first (`ctx.elicit()` …, answered round by round), then call this before the long part. Resolves true once
   * the call is a task; false (and nothing changes) when the call is not a task call.
   *
   * @example
   * const who = await ctx.elicit('Whose report?', NameForm);
   * await ctx.startTask();
   * return buildReport(who);
   */
  async startTask(): Promise<boolean> {
    return (await this.channel.startTask?.()) ?? false;
  }

  /** Reads one of this server's own resources, as a client would. */
  async readResource(uri: string): Promise<unknown[]> {
    const interaction = this.channel.interaction;
    if (!interaction) throw new InvalidAnswerError('Resources cannot be read from this context.');
    return interaction.readResource(uri);
  }

  private interaction(capability: string, what: string, check: (declared: Record<string, unknown>) => boolean = () => true): InteractionChannel {
    const declared = this.client.capabilities[capability] as Record<string, unknown> | undefined;
    const interaction = this.channel.interaction;
    if (interaction && this.protocolVersion === undefined) {
      // Stateless HTTP serving a 2025-era client: no handshake, no session to carry the client's answer.
      throw new InvalidAnswerError(
        `This tool needs ${what}, which a stateless server cannot ask a 2025-era client for (the answer needs a session). ` +
          `Serve over stateful HTTP or stdio, or connect with a 2026-07-28 client.`,
      );
    }
    if (interaction && (!declared || !check(declared)) && isModernRevision(this.protocolVersion)) {
      // 2026-07-28: the request itself is refused (-32021, HTTP 400), naming the capability it needs.
      const needed = capability === 'elicitation' && declared ? { elicitation: { url: {} } } : { [capability]: {} };
      throw new RequestError(
        RpcCode.MissingRequiredClientCapability,
        `This tool needs ${what}, but the client did not declare the '${capability}' capability${capability === 'elicitation' && declared ? ' for this mode' : ''}.`,
        { requiredCapabilities: needed },
      );
    }
    if (!interaction || !declared || !check(declared)) {
      throw new InvalidAnswerError(
        `This tool needs ${what}, but the client did not declare the '${capability}' capability${
          capability === 'elicitation' && declared ? ' for this mode' : ''
        }. Use a client that supports ${what}, or call a tool that does not need it.`,
      );
    }
    return interaction;
  }

  /** Sends `notifications/resources/updated` for `uri` to every session subscribed to it. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    await this.channel.resourceUpdated?.(uri);
  }

  /**
   * Reports progress to the client, as `(progress, total?, message?)` or as one object (@rekog/mcp-nest's shape).
   * Sent only when the request carries a progress token; values must increase (the spec requires it), so a value
   * not above the last one sent is dropped.
   * @example await ctx.reportProgress({ progress: 50, total: 100, message: 'half way' });
   */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  reportProgress(update: ProgressUpdate): Promise<void>;
  async reportProgress(first: number | ProgressUpdate, total?: number, message?: string): Promise<void> {
    const update = progressUpdate(first, total, message);
    const token = this.channel.progressToken;
    if (token === undefined || !(update.progress > this.lastProgress)) return;
    this.lastProgress = update.progress;
    await this.channel.notify('notifications/progress', progressParams(token, update));
  }
}

/** The client cannot do what the tool asked, or its answer is unusable: reported to the model as an isError. */
export class InvalidAnswerError extends ToolError {
  override readonly code: string = ErrorCode.InvalidAnswer;
}
