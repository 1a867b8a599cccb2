import type { Server } from '@modelcontextprotocol/server';
import { ForwardingChannel, type InputRequiredSignal, type InteractionChannel, type RequestChannel } from '../../context';
import { relatedTo } from './tasks-wire';
import { neverAborted } from '../../runtime/never-aborted';

/**
 * What a task keeps of the request that created it, read once (the request ends before the task does): its
 * identity and client as they were. Notifications go to a 2025-era session through its `server`; on 2026-07-28
 * the request's stream is gone, so they are dropped.
 */
export interface TaskOrigin extends RequestChannel {
  /** The session's server (2025 eras): notifications and input requests go to the client through it. */
  readonly server?: Server;
}

/** Reads what a task needs of its request's channel, once. */
export function originOf(channel: RequestChannel, server: Server | undefined): TaskOrigin {
  const { requestId, sessionId, progressToken, client, protocolVersion, auth, headers, clientKey, meta, interaction, state } = channel;
  const resourceUpdated = channel.resourceUpdated?.bind(channel);
  return {
    signal: neverAborted(), // no request aborts it: a task's own signal replaces it
    requestId,
    sessionId,
    progressToken,
    client,
    protocolVersion,
    auth,
    headers,
    clientKey,
    meta,
    interaction,
    state,
    ...(server ? { server } : {}),
    // A client that went away must not fail the task.
    notify: async (method, params) => void (await server?.notification({ method, params } as never).catch(() => undefined)),
    log: async (level, data, logger) => void (await server?.sendLoggingMessage({ level, data, ...(logger ? { logger } : {}) }, sessionId).catch(() => undefined)),
    resourceUpdated: async (uri) => void (await resourceUpdated?.(uri)),
  };
}

/** The progress token of a task whose call carried none: its progress messages still become its `statusMessage`. */
export function taskProgressToken(taskId: string): string {
  return `task:${taskId}`;
}

/** What a task channel reports to its run. */
export interface TaskChannelHooks {
  readonly taskId: string;
  /** A progress message (`ctx.reportProgress(…, message)`): the task's `statusMessage`. */
  progress(message: string): void;
}

/**
 * The Context's view of a task run: the request's identity and client (its origin), the task's own signal
 * (aborted by `tasks/cancel`), the answers collected so far, and every input request the run raises. Progress
 * messages become the task's `statusMessage`.
 */
export class TaskChannel extends ForwardingChannel {
  readonly raised: InputRequiredSignal[] = [];
  private readonly answersView: InteractionChannel | undefined;
  private readonly ownToken: string;

  constructor(
    origin: TaskOrigin,
    private readonly taskSignal: AbortSignal,
    answers: Readonly<Record<string, unknown>>,
    private readonly hooks: TaskChannelHooks,
  ) {
    super(origin);
    this.ownToken = taskProgressToken(hooks.taskId);
    const base = origin.interaction;
    this.answersView = base && {
      response: (key) => answers[key],
      form: (dto) => base.form(dto),
      readResource: (uri) => base.readResource(uri),
      raised: (signal) => this.raised.push(signal),
    };
  }

  override get signal(): AbortSignal {
    return this.taskSignal;
  }

  override get interaction(): InteractionChannel | undefined {
    return this.answersView;
  }

  /** The request's token, else one of the task's own: progress messages become the task's `statusMessage` either way. */
  override get progressToken(): string | number | undefined {
    return this.base.progressToken ?? this.ownToken;
  }

  override async startTask(): Promise<boolean> {
    return true; // already one
  }

  override async notify(method: string, params: Record<string, unknown>): Promise<void> {
    if (method === 'notifications/progress') {
      if (typeof params.message === 'string') this.hooks.progress(params.message);
      if (params.progressToken === this.ownToken) return; // the client asked for no progress
    }
    await this.base.notify(method, { ...params, _meta: relatedTo(this.hooks.taskId, params._meta) });
  }
}
