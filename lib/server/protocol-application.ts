import type { CompletionRegistry } from '../completions';
import type { CacheHint, DeclaredKinds, McpMethod, MiddlewareHook } from '../interfaces';
import type { CallPolicy, ElicitationForms, RequestScopeOpener } from '../invocation';
import type { ServerLogger } from '../interfaces';
import type { PromptRegistry } from '../prompts';
import type { ResourceRegistry } from '../resources';
import type { ToolRegistry } from '../tools';
import type { TasksOptions } from '../tasks';
import type { StateOptions } from '../state';
import type { ServerHub } from './server-hub';
import type { ToolSearchSettings } from './tool-search';
import type { SkillShelf } from './skills/skill-shelf';

/** What the protocol layer needs from the application: identity and the compiled registries. */
export interface ProtocolApplication {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly completions: CompletionRegistry;
  readonly logger: ServerLogger;
  readonly policy: CallPolicy;
  /** Opens the request scope of a call or list (request-scoped guards and classes). */
  readonly openScope: RequestScopeOpener;
  /** The middleware hooks around each MCP method, outermost first (computed once). */
  readonly middleware: (method: McpMethod) => readonly MiddlewareHook[];
  readonly hub: ServerHub;
  readonly forms: ElicitationForms;
  /** HMAC key for multi-round-trip state; the same on every instance that may see a retry. */
  readonly stateSecret: string | Uint8Array;
  /** Kinds declared even while empty (by default a kind is declared when the application has one). */
  readonly declare?: DeclaredKinds;
  /** Most resource subscriptions one session may hold (`McpModule.forRoot({ maxSubscriptionsPerSession })`). */
  readonly maxSubscriptionsPerSession: number;
  /** Cache hints per cacheable operation (`McpModule.forRoot({ cacheHints })`), unchecked. */
  readonly cacheHints?: Readonly<Record<string, CacheHint | undefined>>;
  /** Where tasks live and for how long (`McpModule.forRoot({ tasks })`); defaults apply when absent. */
  readonly tasks?: TasksOptions;
  /** `McpModule.forRoot({ toolSearch })`: tools/list shows the search tools, which search_tools and call_tool answer. */
  readonly toolSearch?: ToolSearchSettings;
  /** Where `ctx.state` lives and for how long (`McpModule.forRoot({ state })`); defaults apply when absent. */
  readonly state?: StateOptions;
  /** `McpModule.forRoot({ skills })` loaded: the skills methods are answered from it (docs/skills.md). */
  readonly skills?: SkillShelf;
}
