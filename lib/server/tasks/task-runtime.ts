import { resolveTasksOptions, type ResolvedTasksOptions } from '../../tasks';
import type { ResolvedStateOptions } from '../../state';
import type { ProtocolApplication } from '../protocol-application';
import { TaskService } from './tasks-service';

/**
 * What tasks need of an application's life (docs/tasks.md): the one task service, made once some tool is a task
 * tool (with a durable queue, once `start()`: its worker runs whether or not a client ever connects), aborted when
 * the application closes, and told when a session ends. The server factory asks it for the service of each session.
 */
export class TaskRuntime {
  private taskService: TaskService | undefined;
  private taskTools: boolean | undefined;
  private started = false;
  private readonly worker;

  /** `options`: `forRoot({ tasks })` checked at bootstrap (undefined: none given, the defaults apply); `state`: the application's. */
  constructor(
    private readonly app: ProtocolApplication,
    private readonly options: ResolvedTasksOptions | undefined,
    state: ResolvedStateOptions,
  ) {
    this.worker = { tool: (name: string) => app.tools.get(name), state };
    app.tools.onChange(() => {
      this.taskTools = undefined;
      if (this.options?.queue && this.started) this.service();
    });
  }

  /**
   * A durable queue's worker runs from here on, whether or not a client ever connects (a worker-only process): the
   * standalone host starts it at bootstrap, Nest's once the application is known to have initialised.
   */
  start(): void {
    this.started = true;
    if (this.options?.queue) this.service();
  }

  /** The task service, once some tool is a task tool; undefined before. */
  service(): TaskService | undefined {
    if (!(this.taskTools ??= this.app.tools.some((t) => t.task !== undefined))) return undefined;
    return (this.taskService ??= new TaskService(this.options ?? resolveTasksOptions(), this.app.logger, this.worker));
  }

  /** Aborts the task runs of this process and stops watching the task store (the application closes). */
  async close(): Promise<void> {
    await this.taskService?.close();
  }

  /**
   * A 2025-11-25 session ended for good (DELETE, handshake timeout, an eviction no other instance can take
   * up): the tasks it owns are dropped and their runs aborted. Never rejects (a failing store is logged).
   */
  async sessionEnded(sessionId: string): Promise<void> {
    await this.taskService?.sessionEnded(sessionId).catch((error: unknown) => {
      this.app.logger.error(`Could not drop the tasks of ended session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
