import { Injectable, McpComponents, Module, type McpProvider, type OnApplicationBootstrap, type ProvidedComponents } from 'mcp-reflect';
import { CatalogModule, CatalogTools } from './catalog.module';

/**
 * Components from data, not from decorated methods (docs/composition.md#providers): each saved search is a tool
 * (`saved_<name>`), and `saved_save` saves a new one; the list changes at run time, and clients hear of it.
 */
@Injectable()
export class SavedSearches implements McpProvider, OnApplicationBootstrap {
  readonly source = 'the saved searches';
  private readonly searches = new Map<string, string>([['le_guin', 'le guin']]);
  private changed?: () => void;

  constructor(
    private readonly catalog: CatalogTools,
    private readonly control: McpComponents,
  ) {}

  onApplicationBootstrap(): void {
    this.control.providers.add(this, { namespace: 'saved' });
  }

  watch(changed: () => void): () => void {
    this.changed = changed;
    return () => (this.changed = undefined);
  }

  components(): ProvidedComponents {
    const run = [...this.searches].map(([name, text]) => ({
      name,
      description: `Books matching '${text}'`,
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      call: () => this.catalog.search(text),
    }));
    const save = {
      name: 'save',
      description: 'Save a search as a tool of its own (saved_<name>)',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,30}$' }, text: { type: 'string', minLength: 1 } },
        required: ['name', 'text'],
        additionalProperties: false,
      },
      call: ({ name, text }: Record<string, unknown>) => {
        this.searches.set(String(name), String(text));
        this.changed?.();
        return `Saved: call saved_${String(name)}`;
      },
    };
    return { tools: [...run, save] };
  }
}

@Module({ imports: [CatalogModule], providers: [SavedSearches] })
export class SavedSearchesModule {}
