import { uiContentMeta } from '../apps';
import { Catalogue, namespacedUri, paginate, passesTags, type Page, type TagFilter } from '../catalogue';
import type { RequestChannel } from '../context';
import { BootstrapError, BootstrapErrorCode, RequestError, RpcCode } from '../errors';
import type { CacheHint, ResourceOptions, ResourceTemplateOptions } from '../interfaces';
import { checkCacheHint } from './cache-hint';
import { compileMethod, requestFailure, type CallPolicy, type CompiledMethod, pruneUndefined } from '../invocation';
import { allowedItems, isGuarded, Pipeline, type ComponentRecord, type ExploredComponents, type PipelineServices } from '../pipeline';
import type { SchemaCompiler } from '../validation';
import type {
  ResourceDefinition,
  ResourceDescriptor,
  ResourceListDefinition,
  TemplateDefinition,
  TemplateDescriptor,
  UriMatcher,
} from './resource-definition';
import { toContents, type ResourceContents } from './resource-result';
import {
  duplicateResourceMessage,
  invalidResourceUriMessage,
  resourceOwner,
  subscriptionUriTooLongMessage,
  templateParamMismatchMessage,
} from './resource.messages';

/** The longest URI `resources/subscribe` accepts (it is checked before any matching). */
export const MAX_SUBSCRIPTION_URI_LENGTH = 2048;

/** Resources, templates and resource lists built from records, not yet added. */
export interface StagedResources {
  readonly resources: ResourceDefinition[];
  readonly templates: TemplateDefinition[];
  readonly lists: ResourceListDefinition[];
}

type Kinds = Pick<ExploredComponents, 'resources' | 'templates' | 'lists'>;

/**
 * The resources and resource templates of the application. Reads find a static resource by URI first, then
 * the first template that matches; template variables are validated like tool arguments (always with
 * lenient coercion, since URIs carry strings, and integers only in canonical decimal form).
 */
export class ResourceRegistry {
  readonly resources: Catalogue<ResourceDefinition, ResourceDescriptor>;
  readonly templates: Catalogue<TemplateDefinition, TemplateDescriptor>;
  private readonly byUri = new Map<string, ResourceDefinition>();
  /** URI templates left out by includeTags/excludeTags. */
  readonly excludedTemplates = new Set<string>();
  private readonly lists: ResourceListDefinition[] = [];

  /** True when a resource, template or `@ResourceList()` method (enabled or not) receives a Context. */
  usesContext(): boolean {
    const takes = (d: { pipeline: { takesContext: boolean } }) => d.pipeline.takesContext;
    return this.resources.some(takes) || this.templates.some(takes) || this.lists.some(takes);
  }

  /** True while there is no resource, template or `@ResourceList()` method at all (enabled or not). */
  get empty(): boolean {
    return this.resources.empty && this.templates.empty && this.lists.length === 0;
  }

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly matcher: (template: string, owner: string) => UriMatcher,
    private readonly policy: CallPolicy,
    private readonly services: PipelineServices,
    private readonly filter: TagFilter = {},
    pageSize?: number,
  ) {
    this.resources = new Catalogue('resource', (r) => r.descriptor, pageSize);
    this.templates = new Catalogue('resource template', (t) => t.descriptor, pageSize);
  }

  /** Builds the resources, templates and lists of `found` without adding them. */
  stage(found: Kinds): StagedResources {
    const staged: StagedResources = { resources: [], templates: [], lists: [] };
    const names = new Map<string, ResourceDefinition | TemplateDefinition>();
    const uris = new Map<string, ResourceDefinition>();
    for (const record of found.resources) {
      const { host, method, options } = record;
      const { target } = host;
      const name = options.name ?? method;
      const owner = resourceOwner('resource', name, target.name, method);
      const uri = options.uri;
      if (typeof uri !== 'string' || !URL.canParse(uri)) throw new BootstrapError(BootstrapErrorCode.InvalidResourceUri, invalidResourceUriMessage(owner, uri));
      this.checkFree(name, `${target.name}.${method}`, names);
      const live = this.byUri.get(uri);
      const clash = (live && this.resources.find(live.name) === live ? live : undefined) ?? uris.get(uri);
      if (clash) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicateResource,
          duplicateResourceMessage('resource URI', uri, `${clash.compiled.className}.${clash.compiled.methodName}`, `${target.name}.${method}`),
        );
      }
      const compiled = compileMethod(host, method, owner, this.compiler);
      const descriptor = pruneUndefined({ uri, name, title: options.title, description: options.description, mimeType: options.mimeType, annotations: options.annotations, icons: options.icons, size: options.size, _meta: options._meta });
      if (!passesTags(options.tags, this.filter)) continue;
      const pipeline = this.readPipeline(record, compiled, name, 'resource', descriptor.mimeType, undefined, uiContentMeta(descriptor));
      const cacheHint = checkCacheHint(options.cacheHint, owner, `@Resource('${uri}', { cacheHint: { ttlMs: 60_000, cacheScope: 'public' } })`);
      const resource = { name, uri, tags: options.tags, descriptor, compiled, pipeline, cacheHint };
      staged.resources.push(resource);
      names.set(name, resource);
      uris.set(uri, resource);
    }
    for (const record of found.templates) {
      const { host, method, options } = record;
      const { target } = host;
      const name = options.name ?? method;
      const owner = resourceOwner('resource template', name, target.name, method);
      this.checkFree(name, `${target.name}.${method}`, names);
      const matcher = this.matcher(options.uriTemplate, owner);
      const compiled = compileMethod(host, method, owner, this.compiler.withCanonicalIntegers());
      for (const property of Object.keys((compiled.inputSchema.properties ?? {}) as object)) {
        if (!matcher.variableNames.includes(property)) {
          throw new BootstrapError(BootstrapErrorCode.TemplateParamMismatch, templateParamMismatchMessage(owner, property, matcher.variableNames));
        }
      }
      const descriptor = pruneUndefined({ uriTemplate: options.uriTemplate, name, title: options.title, description: options.description, mimeType: options.mimeType, annotations: options.annotations, icons: options.icons, _meta: options._meta });
      if (!passesTags(options.tags, this.filter)) {
        this.excludedTemplates.add(options.uriTemplate);
        continue;
      }
      const pipeline = this.readPipeline(record, compiled, name, 'resource-template', descriptor.mimeType, options.uriTemplate);
      const cacheHint = checkCacheHint(options.cacheHint, owner, `@ResourceTemplate('${options.uriTemplate}', { cacheHint: { ttlMs: 60_000 } })`);
      const template = { name, uriTemplate: options.uriTemplate, tags: options.tags, descriptor, matcher, compiled, pipeline, complete: options.complete, cacheHint };
      staged.templates.push(template);
      names.set(name, template);
    }
    for (const record of found.lists) {
      const { target } = record.host;
      const where = `${target.name}.${record.method}`;
      const compiled = compileMethod(record.host, record.method, `resource list (${where})`, this.compiler);
      const pipeline = new Pipeline<ResourceDescriptor[], undefined>({
        compiled,
        enhancers: record.enhancers,
        component: { kind: 'resource-list', name: where, method: 'resources/list' },
        ...this.services,
        convert: listConverter(record.host.namespace, where, this.policy),
        invalid: () => [],
        fail: (error) => {
          throw requestFailure(error, 'listing resources', where, this.policy);
        },
        denied: () => [],
      });
      staged.lists.push({ compiled, pipeline });
    }
    return staged;
  }

  /** Adds what `stage()` built: one change per catalogue; those named in `disabled` start disabled. */
  commit(staged: StagedResources, disabled?: ReadonlySet<string>): void {
    for (const resource of staged.resources) this.byUri.set(resource.uri, resource);
    this.resources.addAll(staged.resources, disabled);
    this.templates.addAll(staged.templates, disabled);
    this.lists.push(...staged.lists);
    if (staged.lists.length > 0) this.resources.changed(); // resources/list shows them: sessions are told
  }

  private readPipeline(
    record: ComponentRecord<ResourceOptions | ResourceTemplateOptions>,
    compiled: CompiledMethod,
    name: string,
    kind: 'resource' | 'resource-template',
    mimeType: string | undefined,
    uriTemplate?: string,
    contentMeta?: Record<string, unknown>,
  ): Pipeline<ResourceContents[], string> {
    const where = `${compiled.className}.${compiled.methodName}`;
    return new Pipeline<ResourceContents[], string>({
      compiled,
      enhancers: record.enhancers,
      component: { kind, name, method: 'resources/read' },
      ...this.services,
      convert: (value, uri) => toContents(value, uri, mimeType, contentMeta),
      invalid: (issues, uri) => {
        throw new RequestError(RpcCode.InvalidParams, `Invalid resource URI '${uri}' for template '${uriTemplate}': ${issues.join('; ')}`, { uri });
      },
      fail: (error, uri) => {
        throw requestFailure(error, `reading resource '${uri}'`, where, this.policy);
      },
      denied: (uri) => {
        throw resourceNotFound(uri);
      },
    });
  }

  /** `resources/list`: the static resources the caller may see, then what `@ResourceList()` methods return now. */
  async list(cursor: string | undefined, open: () => RequestChannel): Promise<Page<ResourceDescriptor>> {
    const guarded = isGuarded(this.resources);
    if (this.lists.length === 0 && !guarded) return this.resources.page(cursor);
    const visible = guarded
      ? (await allowedItems(this.resources.values(), (r) => r.pipeline, open, 'resources/list', this.services.openScope)).map((r) => r.descriptor)
      : this.resources.list();
    const dynamic: ResourceDescriptor[] = [];
    for (const list of this.lists) dynamic.push(...(await list.pipeline.call({}, open, undefined)));
    return paginate([...visible, ...dynamic], cursor, this.resources.pageLimit);
  }

  /** `resources/templates/list` for this caller. */
  async templatePage(cursor: string | undefined, open: () => RequestChannel): Promise<Page<TemplateDescriptor>> {
    if (!isGuarded(this.templates)) return this.templates.page(cursor);
    const visible = await allowedItems(this.templates.values(), (t) => t.pipeline, open, 'resources/templates/list', this.services.openScope);
    return paginate(visible.map((t) => t.descriptor), cursor, this.templates.pageLimit);
  }

  /** `resources/read`. */
  read(uri: string, open: () => RequestChannel): ResourceContents[] | Promise<ResourceContents[]> {
    return this.serve(uri, open).contents;
  }

  /** `resources/read`, with the cache hint of the resource or template that serves it, and whether it is guarded. */
  serve(uri: string, open: () => RequestChannel): { contents: ResourceContents[] | Promise<ResourceContents[]>; cacheHint?: CacheHint; guarded: boolean } {
    const resource = this.byUri.get(uri);
    if (resource && this.resources.get(resource.name) === resource) {
      return { contents: resource.pipeline.call({}, open, uri), cacheHint: resource.cacheHint, guarded: resource.pipeline.guarded };
    }
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (variables) return { contents: template.pipeline.call(variables, open, uri), cacheHint: template.cacheHint, guarded: template.pipeline.guarded };
    }
    throw resourceNotFound(uri);
  }

  /** The pipeline that would serve `resources/read` of `uri` (the static resource, else the first matching template). */
  pipelineFor(uri: string): Pipeline<ResourceContents[], string> | undefined {
    return this.servingOf(uri)?.pipeline;
  }

  /**
   * What serves `uri` and the list that shows it: the static resource (`resources/list`), else the first
   * template that matches (`resources/templates/list`). With `disabled`, disabled ones count too.
   */
  servingOf(uri: string, disabled = false): { pipeline: Pipeline<ResourceContents[], string>; listMethod: 'resources/list' | 'resources/templates/list' } | undefined {
    const resource = this.byUri.get(uri);
    const live = resource && (disabled ? this.resources.find(resource.name) : this.resources.get(resource.name));
    if (resource && live === resource) return { pipeline: resource.pipeline, listMethod: 'resources/list' };
    const templates = disabled ? this.templates.names().map((name) => this.templates.find(name)!) : this.templates.values();
    for (const template of templates) if (template.matcher.match(uri)) return { pipeline: template.pipeline, listMethod: 'resources/templates/list' };
    return undefined;
  }

  /** True when `resources/list` depends on the caller: a guarded resource, or a guarded `@ResourceList()` method. */
  get listGuarded(): boolean {
    return isGuarded(this.resources) || this.lists.some((list) => list.pipeline.guarded);
  }

  /**
   * Why `resources/subscribe` must refuse `uri`, or undefined: a URI longer than MAX_SUBSCRIPTION_URI_LENGTH,
   * then one that no enabled resource or template matches (the answer `resources/read` gives). Only matches:
   * no method, guard or validation runs.
   */
  refuseSubscription(uri: string): RequestError | undefined {
    if (uri.length > MAX_SUBSCRIPTION_URI_LENGTH) {
      return new RequestError(RpcCode.InvalidParams, subscriptionUriTooLongMessage(uri.length, MAX_SUBSCRIPTION_URI_LENGTH));
    }
    const resource = this.byUri.get(uri);
    if (resource && this.resources.get(resource.name) === resource) return undefined;
    for (const template of this.templates.values()) if (template.matcher.match(uri)) return undefined;
    return resourceNotFound(uri);
  }

  private checkFree(name: string, where: string, staged: ReadonlyMap<string, { compiled: CompiledMethod }>): void {
    const clash = this.resources.find(name) ?? this.templates.find(name) ?? staged.get(name);
    if (!clash) return;
    throw new BootstrapError(
      BootstrapErrorCode.DuplicateResource,
      duplicateResourceMessage('resource name', name, `${clash.compiled.className}.${clash.compiled.methodName}`, where),
    );
  }
}

/** The answer to a URI no resource serves, or one the caller may not see: `Resource not found: <uri>`. */
export function resourceNotFound(uri: string): RequestError {
  return new RequestError(RpcCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

/**
 * What a `@ResourceList()` method's answer becomes: its entries, and in a namespaced module with the
 * namespace in their URIs, as the module's templates and resources have it (an entry whose URI
 * has no `scheme://` part cannot take one: it is left out, and the server log says why).
 */
function listConverter(namespace: string | undefined, where: string, policy: CallPolicy): (value: unknown) => ResourceDescriptor[] {
  if (!namespace) return (value) => (Array.isArray(value) ? (value as ResourceDescriptor[]) : []);
  return (value) => {
    if (!Array.isArray(value)) return [];
    const entries: ResourceDescriptor[] = [];
    for (const entry of value as ResourceDescriptor[]) {
      const uri = typeof entry?.uri === 'string' ? namespacedUri(namespace, entry.uri) : undefined;
      if (uri === undefined) {
        policy.logger.error(`Resource list ${where} (namespace '${namespace}') returned the URI ${JSON.stringify(entry?.uri)}, which has no 'scheme://' part to put the namespace in: it is not listed.`);
        continue;
      }
      entries.push({ ...entry, uri });
    }
    return entries;
  };
}
