import { Catalogue, paginate, passesTags, type Page, type TagFilter } from '../catalogue';
import type { RequestChannel } from '../context';
import { BootstrapError, BootstrapErrorCode, RequestError, RpcCode } from '../errors';
import type { ResourceOptions, ResourceTemplateOptions } from '../interfaces';
import { compileMethod, runMethod, toRequestError, type CallPolicy, type MethodHost, pruneUndefined } from '../invocation';
import { getComponentMethods, getComponentOptions } from '../metadata';
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
  templateParamMismatchMessage,
} from './resource.messages';

type Decorated<T> = T & { uri?: string; uriTemplate?: string };

/**
 * The resources and resource templates of the application. Reads find a static resource by URI first, then
 * the first template that matches; template variables are validated like tool arguments (always with
 * lenient coercion, since URIs carry strings).
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
    const takes = (d: { compiled: { needsContext: boolean } }) => d.compiled.needsContext;
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
    private readonly filter: TagFilter = {},
    pageSize?: number,
  ) {
    this.resources = new Catalogue('resource', (r) => r.descriptor, pageSize);
    this.templates = new Catalogue('resource template', (t) => t.descriptor, pageSize);
  }

  addHost(host: MethodHost): void {
    const { target } = host;
    for (const method of getComponentMethods('resource', target)) {
      const options = getComponentOptions<Decorated<ResourceOptions>>('resource', target, method)!;
      const name = options.name ?? method;
      const owner = resourceOwner('resource', name, target.name, method);
      const uri = options.uri!;
      if (!URL.canParse(uri)) throw new BootstrapError(BootstrapErrorCode.InvalidResourceUri, invalidResourceUriMessage(owner, uri));
      this.checkFree(name, `${target.name}.${method}`);
      const clash = this.byUri.get(uri);
      if (clash && this.resources.find(clash.name) === clash) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicateResource,
          duplicateResourceMessage('resource URI', uri, `${clash.compiled.className}.${clash.compiled.methodName}`, `${target.name}.${method}`),
        );
      }
      const compiled = compileMethod(host, method, owner, this.compiler);
      const descriptor = pruneUndefined({ uri, name, title: options.title, description: options.description, mimeType: options.mimeType, annotations: options.annotations, icons: options.icons, size: options.size, _meta: options._meta });
      if (!passesTags(options.tags, this.filter)) continue;
      const definition: ResourceDefinition = { name, uri, tags: options.tags, descriptor, compiled };
      this.byUri.set(uri, definition);
      this.resources.add(definition);
    }
    for (const method of getComponentMethods('resource-template', target)) {
      const options = getComponentOptions<Decorated<ResourceTemplateOptions>>('resource-template', target, method)!;
      const name = options.name ?? method;
      const owner = resourceOwner('resource template', name, target.name, method);
      this.checkFree(name, `${target.name}.${method}`);
      const matcher = this.matcher(options.uriTemplate!, owner);
      const compiled = compileMethod(host, method, owner, this.compiler);
      for (const property of Object.keys((compiled.inputSchema.properties ?? {}) as object)) {
        if (!matcher.variableNames.includes(property)) {
          throw new BootstrapError(
            BootstrapErrorCode.TemplateParamMismatch,
            templateParamMismatchMessage(owner, property, matcher.variableNames),
          );
        }
      }
      const descriptor = pruneUndefined({ uriTemplate: options.uriTemplate!, name, title: options.title, description: options.description, mimeType: options.mimeType, annotations: options.annotations, icons: options.icons, _meta: options._meta });
      if (!passesTags(options.tags, this.filter)) {
        this.excludedTemplates.add(options.uriTemplate!);
        continue;
      }
      this.templates.add({ name, uriTemplate: options.uriTemplate!, tags: options.tags, descriptor, matcher, compiled, complete: options.complete });
    }
    const lists = getComponentMethods('resource-list', target);
    for (const method of lists) {
      const owner = `resource list (${target.name}.${method})`;
      this.lists.push({ compiled: compileMethod(host, method, owner, this.compiler) });
    }
    if (lists.length > 0) this.resources.changed(); // resources/list shows them: sessions are told
  }

  /** `resources/list`: the static resources, then what `@ResourceList()` methods return now. */
  async list(cursor: string | undefined, channel: RequestChannel): Promise<Page<ResourceDescriptor>> {
    if (this.lists.length === 0) return this.resources.page(cursor);
    const dynamic: ResourceDescriptor[] = [];
    for (const list of this.lists) {
      const where = `${list.compiled.className}.${list.compiled.methodName}`;
      try {
        const outcome = await runMethod(list.compiled, {}, channel);
        if (outcome.ok && Array.isArray(outcome.value)) dynamic.push(...(outcome.value as ResourceDescriptor[]));
      } catch (error) {
        throw toRequestError(error, 'listing resources', where, this.policy);
      }
    }
    return paginate([...this.resources.list(), ...dynamic], cursor, this.resources.pageLimit);
  }

  /** `resources/read`. */
  async read(uri: string, channel: RequestChannel): Promise<ResourceContents[]> {
    const resource = this.byUri.get(uri);
    if (resource && this.resources.get(resource.name) === resource) {
      return this.run(resource.compiled, {}, uri, resource.descriptor.mimeType, channel, `reading resource '${uri}'`);
    }
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (variables) {
        return this.run(template.compiled, variables, uri, template.descriptor.mimeType, channel, `reading resource '${uri}'`, template);
      }
    }
    throw new RequestError(RpcCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  }

  private async run(
    compiled: ResourceDefinition['compiled'],
    args: Record<string, unknown>,
    uri: string,
    mimeType: string | undefined,
    channel: RequestChannel,
    what: string,
    template?: TemplateDefinition,
  ): Promise<ResourceContents[]> {
    try {
      const outcome = await runMethod(compiled, args, channel);
      if (!outcome.ok) {
        throw new RequestError(
          RpcCode.InvalidParams,
          `Invalid resource URI '${uri}' for template '${template?.uriTemplate}': ${outcome.issues.join('; ')}`,
          { uri },
        );
      }
      return toContents(outcome.value, uri, mimeType);
    } catch (error) {
      throw toRequestError(error, what, `${compiled.className}.${compiled.methodName}`, this.policy);
    }
  }

  private checkFree(name: string, where: string): void {
    const clash = this.resources.find(name) ?? this.templates.find(name);
    if (!clash) return;
    throw new BootstrapError(
      BootstrapErrorCode.DuplicateResource,
      duplicateResourceMessage('resource name', name, `${clash.compiled.className}.${clash.compiled.methodName}`, where),
    );
  }
}
