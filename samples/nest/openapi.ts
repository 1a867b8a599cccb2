import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from './app.module';

/**
 * The REST API's OpenAPI document, written by @nestjs/swagger from the controller's decorators and served at
 * `/openapi.json` (no UI). Only AppModule's own controllers are described: the MCP endpoint is not REST.
 */
export function serveOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder().setTitle('nest-notes').setDescription('A notebook shared with an MCP server.').setVersion('1.0.0').build();
  const document = SwaggerModule.createDocument(app, config, { include: [AppModule] });
  SwaggerModule.setup('openapi', app, document, { ui: false, raw: ['json'], jsonDocumentUrl: 'openapi.json' });
  return document;
}
