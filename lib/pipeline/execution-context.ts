import type { Context } from '../context';
import type { Constructor, ExecutionContext, McpAuth, McpComponentKind, McpMethod, RpcArgumentsHost } from '../interfaces';

/** What a pipeline knows of its component, shared by every ExecutionContext it makes. */
export interface ComponentInfo {
  readonly target: Function;
  readonly handler: Function;
  readonly kind: McpComponentKind;
  readonly name: string;
  /** The MCP method that calls the component. */
  readonly method: McpMethod;
}

/** The one ExecutionContext implementation, for calls and for list checks alike. */
export class ExecutionContextHost implements ExecutionContext {
  constructor(
    private readonly component: ComponentInfo,
    readonly phase: 'call' | 'list',
    private readonly data: Record<string, unknown> | undefined,
    readonly context: Context,
    readonly method: McpMethod = component.method,
  ) {}

  getClass<T = unknown>(): Constructor<T> {
    return this.component.target as Constructor<T>;
  }

  getHandler(): Function {
    return this.component.handler;
  }

  getArgs<T extends unknown[] = [Record<string, unknown> | undefined, Context]>(): T {
    return [this.data, this.context] as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.getArgs()[index] as T;
  }

  switchToRpc(): RpcArgumentsHost {
    return {
      getData: <T>() => this.data as T,
      getContext: <T>() => this.context as T,
    };
  }

  getType<T extends string = 'mcp'>(): T {
    return 'mcp' as T;
  }

  get kind(): McpComponentKind {
    return this.component.kind;
  }

  get name(): string {
    return this.component.name;
  }

  get auth(): McpAuth | undefined {
    return this.context.auth;
  }

  get sessionId(): string | undefined {
    return this.context.sessionId;
  }
}
