import { paginate, type Catalogue, type CatalogueItem, type Page } from '../catalogue';
import { Context, type RequestChannel } from '../context';
import type { McpMethod } from '../interfaces';
import type { RequestScopeOpener } from '../invocation';
import type { Pipeline } from './pipeline';

/**
 * The items of a list the caller may see: each item whose pipeline is guarded is asked with `phase: 'list'`.
 * One Context (and, when something is request-scoped, one request scope) serves every check of the list.
 */
export async function allowedItems<T>(
  items: readonly T[],
  pipelineOf: (item: T) => Pipeline<unknown, any> | undefined,
  open: () => RequestChannel,
  listMethod: McpMethod,
  openScope: RequestScopeOpener,
): Promise<T[]> {
  let context: Context | undefined;
  let request: ReturnType<RequestScopeOpener> | undefined;
  const allowed: T[] = [];
  for (const item of items) {
    const pipeline = pipelineOf(item);
    if (!pipeline?.guarded) {
      allowed.push(item);
      continue;
    }
    context ??= new Context(open());
    if (pipeline.scopedPerRequest) request ??= openScope(context);
    const check = () => pipeline.allows(context!, request, listMethod);
    if (await (request ? request.run(check) : check())) allowed.push(item);
  }
  return allowed;
}

/**
 * Whether one caller may see one component: the question its list asks (`allowedItems` for one item). True
 * at once, without a Context, for a component with no guard and no `@Scopes()`.
 */
export function visibleTo(pipeline: Pipeline<unknown, any>, open: () => RequestChannel, listMethod: McpMethod, openScope: RequestScopeOpener): boolean | Promise<boolean> {
  if (!pipeline.guarded) return true;
  const context = new Context(open());
  const request = pipeline.scopedPerRequest ? openScope(context) : undefined;
  const check = () => pipeline.allows(context, request, listMethod);
  return request ? request.run(check) : check();
}

/** An item whose calls run through a pipeline. */
export interface PipelinedItem extends CatalogueItem {
  readonly pipeline: Pipeline<any, any>;
}

/**
 * One page of a catalogue as this caller may see it. Without guarded items it is the precomputed page (no
 * work per request); otherwise the guards of the guarded items decide, and the page is cut from what is left.
 */
export function pageFor<T extends PipelinedItem, D>(
  catalogue: Catalogue<T, D>,
  cursor: string | undefined,
  open: () => RequestChannel,
  listMethod: McpMethod,
  openScope: RequestScopeOpener,
): Page<D> | Promise<Page<D>> {
  if (!isGuarded(catalogue)) return catalogue.page(cursor);
  return allowedItems(catalogue.values(), (item) => item.pipeline, open, listMethod, openScope).then((items) =>
    paginate(items.map(catalogue.describe), cursor, catalogue.pageLimit),
  );
}

/** True when some item of the catalogue has a guard (computed once per change of the catalogue). */
export function isGuarded<T extends PipelinedItem>(catalogue: Catalogue<T, unknown>): boolean {
  return catalogue.memo('guarded', () => catalogue.some((item) => item.pipeline.guarded));
}
