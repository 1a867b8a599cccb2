import type { AddOptions, McpProvider, ProvidedComponents } from '../interfaces';
import { ApiClient, type Logger } from './api-client';
import { loadDocument } from './document-loader';
import { DocumentProblem, invalidDocument } from './openapi.messages';
import type { OpenApiSettings } from './openapi-options.check';
import { openApiComponents } from './openapi-components';
import { readOperations } from './operations';

/** What the provider needs of the application: its providers, as `McpComponents` gives them. */
export interface OpenApiComponentControl {
  readonly providers: { add(provider: McpProvider, options?: AddOptions): unknown };
}

/** How many operations a left-out warning names before it says "and N more". */
const NAMED = 10;

/**
 * An HTTP API described by an OpenAPI document, served as a provider of this application
 * (`McpModule.fromOpenApi()`): once the application is built, the document is read (bounded), its operations
 * are selected and compiled (schemas, requests), and their components are added under the namespace, to be
 * served through the application's one pipeline. A document that cannot be served fails the bootstrap with
 * `INVALID_OPENAPI_DOCUMENT`, naming where and why.
 */
export class McpOpenApi implements McpProvider {
  private built: ProvidedComponents = {};

  constructor(
    private readonly settings: OpenApiSettings,
    private readonly control: OpenApiComponentControl,
    private readonly logger: Logger,
  ) {}

  /** Aborts a reading of the document under way when the application stops (a bootstrap that failed meanwhile). */
  private readonly stopping = new AbortController();

  /** Names the document in messages. */
  get source(): string {
    return `OpenAPI document ${this.settings.label} (namespace '${this.settings.namespace}')`;
  }

  components(): ProvidedComponents {
    return this.built;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { settings } = this;
    // documentTimeout bounds the whole load: reading, parsing, resolving, selecting and converting.
    const deadline = Date.now() + settings.documentTimeout;
    let built;
    const left: string[] = [];
    const dropped: string[] = [];
    try {
      const document = await loadDocument(settings, deadline, this.stopping.signal);
      const notes = {
        leftOut: (operation: string, reason: string) => left.push(`${operation}: ${reason}`),
        dropped: (operation: string, what: string) => dropped.push(`${operation}: ${what}`),
        overdue: () => {
          if (Date.now() > deadline) {
            throw new DocumentProblem(`reading it took longer than documentTimeout (${settings.documentTimeout} ms)`, 'raise documentTimeout, or serve a part of the document (include: { tags: [...] })');
          }
        },
      };
      const operations = readOperations(document, settings, notes);
      built = openApiComponents(operations, settings, new ApiClient(settings, this.logger), { deadline, dropped: notes.dropped });
    } catch (error) {
      throw error instanceof DocumentProblem ? invalidDocument(settings.label, settings.namespace, error) : error;
    }
    this.warn(left, (n) => `${n} operation${n === 1 ? '' : 's'} left out, which cannot be served`);
    this.warn(dropped, (n) => `${n} part${n === 1 ? '' : 's'} of operations left out, which are never sent or run`);
    this.built = built.components;
    this.control.providers.add(this, { namespace: settings.namespace, ...(settings.transforms ? { transforms: settings.transforms } : {}) });
  }

  /** The application stops: a fetch of the document still under way is aborted (its connection closed). */
  onApplicationShutdown(): void {
    this.stopping.abort();
  }

  /** One warning naming what was left out (the first few of them). */
  private warn(items: readonly string[], what: (count: number) => string): void {
    if (items.length === 0) return;
    const named = items.slice(0, NAMED).join('; ') + (items.length > NAMED ? `; and ${items.length - NAMED} more` : '');
    const message = `The OpenAPI document ${this.settings.label} (namespace '${this.settings.namespace}'): ${what(items.length)}: ${named}.`;
    (this.logger.warn ?? this.logger.error).call(this.logger, message);
  }
}
