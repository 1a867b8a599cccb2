/** One progress report, in the object form of `ctx.reportProgress()` (the shape @rekog/mcp-nest takes). */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** A report given in either form of `ctx.reportProgress()`, as one object. */
export function progressUpdate(first: number | ProgressUpdate, total?: number, message?: string): ProgressUpdate {
  return typeof first === 'object' && first !== null ? first : { progress: first, total, message };
}

/** The params of `notifications/progress` for one report: `total` and `message` only when given. */
export function progressParams(progressToken: string | number, update: ProgressUpdate): Record<string, unknown> {
  const params: Record<string, unknown> = { progressToken, progress: update.progress };
  if (update.total !== undefined) params.total = update.total;
  if (update.message !== undefined) params.message = update.message;
  return params;
}
