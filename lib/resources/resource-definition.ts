import type { CacheHint, ResourceAnnotations, ToolIcon } from '../interfaces';
import type { CompiledMethod } from '../invocation';
import type { Pipeline } from '../pipeline';
import type { ResourceContents } from './resource-result';

/** A resource as `resources/list` shows it. */
export interface ResourceDescriptor {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  readonly icons?: ToolIcon[];
  readonly size?: number;
  readonly _meta?: Record<string, unknown>;
}

/** A resource template as `resources/templates/list` shows it. */
export interface TemplateDescriptor {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  readonly icons?: ToolIcon[];
  readonly _meta?: Record<string, unknown>;
}

/** Matches concrete URIs against an RFC 6570 template; provided by the protocol layer (the SDK's UriTemplate). */
export interface UriMatcher {
  readonly variableNames: readonly string[];
  match(uri: string): Record<string, string | string[]> | null;
}

export interface ResourceDefinition {
  readonly name: string;
  readonly uri: string;
  readonly tags?: readonly string[];
  readonly descriptor: ResourceDescriptor;
  readonly compiled: CompiledMethod;
  /** Reads the resource; the extra input is the URI read. */
  readonly pipeline: Pipeline<ResourceContents[], string>;
  /** `@Resource({ cacheHint })`, checked at bootstrap. */
  readonly cacheHint?: CacheHint;
}

export interface TemplateDefinition {
  readonly name: string;
  readonly uriTemplate: string;
  readonly tags?: readonly string[];
  readonly descriptor: TemplateDescriptor;
  readonly matcher: UriMatcher;
  readonly compiled: CompiledMethod;
  readonly pipeline: Pipeline<ResourceContents[], string>;
  /** Static completion values per variable, from the decorator options. */
  readonly complete?: Record<string, readonly string[]>;
  /** `@ResourceTemplate({ cacheHint })`, checked at bootstrap. */
  readonly cacheHint?: CacheHint;
}

/** A `@ResourceList()` method: entries computed per `resources/list`. */
export interface ResourceListDefinition {
  readonly compiled: CompiledMethod;
  readonly pipeline: Pipeline<ResourceDescriptor[], undefined>;
}
