import { Context, Ctx, Injectable, Param, Tool } from 'mcp-reflect';

/** A long-running tool: a client may run it as a task (docs/tasks.md), on whichever worker takes it. */
@Injectable()
export class ReportTools {
  @Tool({ description: 'Builds the yearly report, month by month.', task: 'optional' })
  async buildReport(@Param({ schema: { minimum: 2000, maximum: 2100 } }) year: number, @Ctx() ctx: Context, @Param({ schema: { maximum: 1_000 } }) msPerMonth: number = 100): Promise<string> {
    for (let month = 1; month <= 12; month++) {
      ctx.signal.throwIfAborted(); // a cancelled task stops here, on whichever worker runs it
      await ctx.reportProgress(month, 12, `month ${month} of ${year}`);
      await new Promise((resolve) => setTimeout(resolve, msPerMonth));
    }
    return `Report ${year}: 12 months.`;
  }
}
