import 'reflect-metadata';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import {
  Context,
  Ctx,
  Injectable,
  McpModule,
  Module,
  Param,
  RequestError,
  Tool,
  ToolError,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type TasksOptions,
} from 'mcp-reflect';
import { deferred, type Deferred } from '../support/waiting';

class Confirm {
  @IsBoolean() confirm!: boolean;
}

class Named {
  @IsOptional() @IsString() name?: string;
}

/** What the specs steer and observe in the task tools (reset by each spec that uses it). */
export const probe = {
  release: deferred<string>(),
  aborted: deferred<unknown>(),
  started: deferred<void>(),
  guardCalls: 0,
  runs: 0,
  reset() {
    this.release = deferred<string>();
    this.aborted = deferred<unknown>();
    this.started = deferred<void>();
    this.guardCalls = 0;
    this.runs = 0;
  },
};

/** Lets a call through only with `allow: true` in its arguments. */
@Injectable()
class AllowGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    probe.guardCalls++;
    return (context.getArgs()[0] as { allow?: boolean } | undefined)?.allow === true;
  }
}

function released(ctx: Context): Promise<string> {
  ctx.signal.addEventListener('abort', () => probe.aborted.resolve(ctx.signal.reason), { once: true });
  return new Promise<string>((resolve, reject) => {
    probe.release.promise.then(resolve, reject);
    ctx.signal.addEventListener('abort', () => reject(new ToolError('stopped')), { once: true });
  });
}

@Injectable()
export class TaskTools {
  @Tool()
  plain(@Param('name') name: string): string {
    return `plain ${name}`;
  }

  @Tool({ task: 'optional' })
  async wait(@Ctx() ctx: Context): Promise<string> {
    probe.runs++;
    await ctx.reportProgress(1, 2, 'half way');
    probe.started.resolve();
    return `released: ${await released(ctx)}`;
  }

  @Tool({ task: 'required' })
  async must(@Ctx() ctx: Context): Promise<string> {
    return `must on ${ctx.protocolVersion}`;
  }

  @Tool({ task: 'optional' })
  async toolFails(): Promise<string> {
    throw new ToolError('it broke');
  }

  @Tool({ task: 'optional' })
  async protocolFails(): Promise<string> {
    throw new RequestError(-32603, 'deep failure', { where: 'here' });
  }

  @Tool({ task: 'optional' })
  async confirm(@Param('what') what: string, @Ctx() ctx: Context): Promise<string> {
    probe.runs++;
    const answer = await ctx.elicit(`Delete ${what}?`, Confirm);
    return answer.action === 'accept' && answer.content.confirm ? `deleted ${what}` : `kept ${what}`;
  }

  @Tool({ task: 'optional' })
  async twoAtOnce(@Ctx() ctx: Context): Promise<string> {
    const [a, b] = await Promise.all([ctx.elicit('A?', Named, { key: 'a' }), ctx.elicit('B?', Named, { key: 'b' })]);
    const name = (x: typeof a) => (x.action === 'accept' ? x.content.name : x.action);
    return `a=${name(a)} b=${name(b)}`;
  }

  @Tool({ task: { support: 'required', start: 'on-demand', ttlMs: 120_000, pollIntervalMs: 250 } })
  async askThenTask(@Ctx() ctx: Context): Promise<string> {
    const who = await ctx.elicit('Who?', Named, { key: 'who' });
    const started = await ctx.startTask();
    return `hello ${who.action === 'accept' ? who.content.name : '?'} (task: ${started})`;
  }

  @Tool({ task: { support: 'optional', start: 'on-demand' } })
  async quickOrTask(@Param('slow') slow: boolean, @Ctx() ctx: Context): Promise<string> {
    if (!slow) return 'quick';
    await ctx.startTask();
    return `slow: ${await released(ctx)}`;
  }

  @Tool({ task: { support: 'optional', start: 'on-demand' } })
  async startThenReport(@Ctx() ctx: Context): Promise<string> {
    await ctx.startTask();
    await ctx.reportProgress(1, 2, 'after the start');
    probe.started.resolve();
    return `reported: ${await released(ctx)}`;
  }

  @UseGuards(AllowGuard)
  @Tool({ task: 'optional' })
  async guarded(@Param('allow') allow: boolean): Promise<string> {
    probe.runs++;
    return `guarded ran (${allow})`;
  }
}

/** A module serving the task tools, with its own task options. */
export function tasksModule(tasks?: TasksOptions, auth?: Record<string, unknown>): Function {
  @Module({
    imports: [McpModule.forRoot({ name: 'tasks-spec', version: '1.0.0', logger: { error() {}, warn() {} }, ...(tasks ? { tasks } : {}), ...(auth ?? {}) })],
    providers: [TaskTools, AllowGuard],
  })
  class TasksSpecModule {}
  return TasksSpecModule;
}

export type { Deferred };
