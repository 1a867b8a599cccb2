import { unknownComponentMessage, type Catalogue } from '../catalogue';

/** What the control needs of a catalogue: names and switches, whatever its items. */
type Controlled = Pick<Catalogue<never, unknown>, 'names' | 'has' | 'isEnabled' | 'enable' | 'disable' | 'remove' | 'kind'>;
import { ErrorCode, McpReflectError } from '../errors';

/**
 * Runtime control over one kind of component (`app.tools`, `app.resources`, `app.prompts`). Every change
 * sends the matching `list_changed` notification to connected sessions.
 *
 * @example
 * app.tools.disable('deleteEverything');
 * app.tools.add(new ReportTools(db)); // every @Tool() method of the instance
 */
export class ComponentControl {
  constructor(
    private readonly catalogues: readonly Controlled[],
    private readonly addInstance: (instance: object) => void,
  ) {}

  /** Names of every component of this kind, enabled or not. */
  names(): string[] {
    return this.catalogues.flatMap((c) => c.names());
  }

  isEnabled(name: string): boolean {
    return this.owner(name).isEnabled(name);
  }

  enable(name: string): void {
    this.owner(name).enable(name);
  }

  disable(name: string): void {
    this.owner(name).disable(name);
  }

  remove(name: string): void {
    this.owner(name).remove(name);
  }

  /** Registers the decorated methods of an object (its class's `@Tool()`, `@Resource()`, `@Prompt()` …). */
  add(instance: object): void {
    this.addInstance(instance);
  }

  private owner(name: string): Controlled {
    const owner = this.catalogues.find((c) => c.has(name));
    if (owner) return owner;
    const kind = this.catalogues[0].kind;
    const known = this.names();
    throw new McpReflectError(ErrorCode.UnknownComponent, unknownComponentMessage(kind, name, known));
  }
}
