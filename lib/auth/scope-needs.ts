import type { ReadMessage } from '../server/message-reading';
import type { ProtocolApplication } from '../server/protocol-application';
import { scoped, scopesFor } from '../server/visibility';

/** What the auth gate's step-up needs of an application: the `@Scopes()` of the components a request names. */
export class ScopeNeeds {
  constructor(private readonly app: ProtocolApplication) {}

  /**
   * The scopes a request needs beyond the server's (`@Scopes()` of the component a `tools/call`,
   * `resources/read` or `prompts/get` names), or undefined: none, or no such component.
   */
  scopesFor(message: ReadMessage): readonly string[] | undefined {
    return scopesFor(this.app, message);
  }

  /** Whether some component has `@Scopes()` (computed once per change of the catalogues). */
  scoped(): boolean {
    return scoped(this.app);
  }
}
