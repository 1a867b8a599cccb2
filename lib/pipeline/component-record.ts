import type { ArgTransform, CompleteOptions, PromptOptions, ResourceOptions, ResourceTemplateOptions, ToolOptions } from '../interfaces';
import type { MethodHost, RequestScopeOpener } from '../invocation';
import type { ComponentEnhancers } from './enhancers';

/** One decorated method found by the explorer: its host, its options (typed by kind) and its enhancers. */
export interface ComponentRecord<O> {
  readonly host: MethodHost;
  readonly method: string;
  readonly options: O;
  readonly enhancers: ComponentEnhancers;
  /** What transforms left for the registry to do (the names, texts and tags they changed are in `options`). */
  readonly transform?: RecordTransform;
}

/** The part of a component's transforms the registry applies as it builds the component. */
export interface RecordTransform {
  /** `false`: added disabled. */
  readonly enabled?: boolean;
  /** Argument transforms of a tool, innermost first (a `forFeature()` one, then a `forRoot()` one, each keyed by the names the one before served). */
  readonly args?: readonly Readonly<Record<string, ArgTransform>>[];
}

/** Every component of a set of hosts, by kind: what the explorer returns. */
export interface ExploredComponents {
  readonly tools: ComponentRecord<ToolOptions>[];
  readonly resources: ComponentRecord<ResourceOptions & { uri: string }>[];
  readonly templates: ComponentRecord<ResourceTemplateOptions & { uriTemplate: string }>[];
  readonly lists: ComponentRecord<object>[];
  readonly prompts: ComponentRecord<PromptOptions>[];
  readonly completers: ComponentRecord<CompleteOptions>[];
}

/** What every registry needs to build pipelines. */
export interface PipelineServices {
  readonly openScope: RequestScopeOpener;
  /** How a call that a guard denies is answered (`McpModule.forRoot({ guardDenial })`). */
  readonly guardDenial?: 'hide' | 'refuse';
  /** The deadline of calls that set none (`McpModule.forRoot({ callTimeout })`; 0: none). */
  readonly callTimeout?: number;
  /** Where a guard that throws while a list is decided is reported (the component is left out). */
  readonly logger?: { warn(message: string): void };
}
