import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Context, Ctx, Injectable, Param, RequestError, Tool, ToolError } from 'mcp-reflect';

class Confirmation {
  @IsBoolean() confirm!: boolean;
}

class Value {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsBoolean() confirm?: boolean;
}

class UserName {
  @IsString() name!: string;
}

/** Waits `ms`, or rejects when `signal` aborts (a cancelled task stops at once). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ToolError('Cancelled.'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new ToolError('Cancelled.'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Fixtures of the tasks scenarios (conformance 0.2.0-alpha.12 `--suite pending`, extension
 * `io.modelcontextprotocol/tasks`; the same tools serve 2025-11-25 task-augmented calls). See docs/tasks.md.
 */
@Injectable()
export class EverythingTasks {
  @Tool({ description: 'Greets synchronously (never a task)' })
  greet(@Param('name') name: string): string {
    return `Hello, ${name}!`;
  }

  @Tool({ description: 'Works for `seconds` seconds, then answers; cancellable', task: 'optional' })
  async slow_compute(
    @Param('seconds', { description: 'How long to work' }) seconds: number,
    @Param('label', { description: 'A name for the run' }) label: string = 'compute',
    @Ctx() ctx: Context,
  ): Promise<string> {
    for (let done = 0; done < seconds; done++) {
      await ctx.reportProgress(done, seconds, `${label}: ${done} of ${seconds} seconds`);
      await pause(1000, ctx.signal);
    }
    return `${label}: done after ${seconds} seconds`;
  }

  @Tool({ description: 'Fails as a tool (completed with isError) after a second', task: 'required' })
  async failing_job(@Ctx() ctx: Context): Promise<string> {
    await pause(1000, ctx.signal);
    throw new ToolError('Tool execution failed');
  }

  @Tool({ description: 'Fails with a protocol error (the task is failed)', task: 'optional' })
  async protocol_error_job(@Ctx() ctx: Context): Promise<string> {
    await pause(100, ctx.signal);
    throw new RequestError(-32603, 'Protocol task failed');
  }

  @Tool({ description: 'Asks for a confirmation, then deletes (pretends to)', task: 'optional' })
  async confirm_delete(@Param('filename') filename: string, @Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit(`Delete ${filename}?`, Confirmation);
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${filename}` : `Kept ${filename}`;
  }

  @Tool({ description: 'Asks two questions at once (both pending together in a task)', task: 'optional' })
  async multi_input(@Ctx() ctx: Context): Promise<string> {
    const [first, second] = await Promise.all([
      ctx.elicit('First value?', Value, { key: 'first' }),
      ctx.elicit('Second value?', Value, { key: 'second' }),
    ]);
    const name = (answer: typeof first) => (answer.action === 'accept' ? (answer.content.name ?? 'yes') : answer.action);
    return `Got ${name(first)} and ${name(second)}`;
  }

  @Tool({
    description: 'Asks a name round by round (input_required), then becomes a task',
    task: { support: 'required', start: 'on-demand' },
  })
  async test_tool_with_task(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('What is your name?', UserName, { key: 'user_name' });
    await ctx.startTask();
    await pause(100, ctx.signal);
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
  }
}
