import type { AddOptions } from '../interfaces';
import { ApiClient, type Logger } from './api-client';
import { loadDocument } from './document-loader';
import { DocumentProblem, invalidDocument } from './openapi.messages';
import type { OpenApiSettings } from './openapi-options.check';
import { openApiComponents } from './openapi-components';
import { readOperations } from './operations';

/** What the provider needs of the application: its runtime component control, as `McpComponents` gives it. */
export interface OpenApiComponentControl {
  readonly tools: { add(instance: object, options?: AddOptions): unknown };
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
export class McpOpenApi {
  constructor(
    private readonly settings: OpenApiSettings,
    private readonly components: OpenApiComponentControl,
    private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { settings } = this;
    let built;
    const left: string[] = [];
    try {
      const document = await loadDocument(settings);
      const operations = readOperations(document, settings, (operation, reason) => left.push(`${operation}: ${reason}`));
      built = openApiComponents(operations, settings, new ApiClient(settings, this.logger));
    } catch (error) {
      throw error instanceof DocumentProblem ? invalidDocument(settings.label, settings.namespace, error) : error;
    }
    if (left.length > 0) {
      const named = left.slice(0, NAMED).join('; ') + (left.length > NAMED ? `; and ${left.length - NAMED} more` : '');
      const message = `The OpenAPI document ${settings.label} (namespace '${settings.namespace}'): ${left.length} operation${left.length === 1 ? '' : 's'} left out, which cannot be served: ${named}.`;
      (this.logger.warn ?? this.logger.error).call(this.logger, message);
    }
    this.components.tools.add(built.instance, { namespace: settings.namespace, ...(settings.transforms ? { transforms: settings.transforms } : {}) });
  }
}
