import 'reflect-metadata';
import { Injectable, Module, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { McpModule, McpService, mcpExecutionOf } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';
import { tap, type Observable } from 'rxjs';
import { petDocument, startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';

const called: string[] = [];

/** A Nest guard of the whole application: deleting is for callers with the pets:admin scope. */
@Injectable()
class AdminDeletes implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = mcpExecutionOf(context);
    return mcp?.name !== 'pets_deletePet' || (mcp.auth?.scopes ?? []).includes('pets:admin');
  }
}

/** A Nest interceptor of the whole application: it sees every OpenAPI call, as any tool's. */
@Injectable()
class Calls implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(tap(() => called.push(mcpExecutionOf(context)?.name ?? '?')));
  }
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

describe('McpModule.fromOpenApi() in a Nest application (mcp-reflect/nest)', () => {
  let api: RunningApi;
  beforeAll(async () => void (api = await startPetApi()));
  afterAll(() => api.close());

  it("serves the API's operations through Nest's guards and interceptors", async () => {
    @Module({
      imports: [McpModule.forRoot({ name: 'nest-gateway', version: '1.0.0', http: false }), McpModule.fromOpenApi({ namespace: 'pets', document: petDocument(), baseUrl: `${api.origin}/api` })],
      providers: [
        { provide: APP_GUARD, useClass: AdminDeletes },
        { provide: APP_INTERCEPTOR, useClass: Calls },
      ],
    })
    class GatewayModule {}
    const app = await NestFactory.createApplicationContext(GatewayModule, { logger: false });
    const application = app.get(McpService).application;
    const admin = await createTestClient(application, { auth: { subject: 'ada', scopes: ['pets:admin'] } });
    const visitor = await createTestClient(application, { auth: { subject: 'bob', scopes: [] } });
    try {
      expect((await admin.listTools()).tools.map((t) => t.name)).toContain('pets_deletePet');
      expect((await visitor.listTools()).tools.map((t) => t.name)).not.toContain('pets_deletePet');
      expect((await visitor.callTool({ name: 'pets_getPet', arguments: { id: 1 } })).structuredContent).toEqual({ id: 1, name: 'Rex', tag: 'dog' });
      expect(text(await admin.callTool({ name: 'pets_deletePet', arguments: { id: 2 } }))).toBe('DELETE /pets/2 answered HTTP 204');
      expect(called).toEqual(['pets_getPet', 'pets_deletePet']);
    } finally {
      await admin.close();
      await visitor.close();
      await app.close();
    }
  });

  it('fails the Nest bootstrap on a document that cannot be served', async () => {
    @Module({
      imports: [
        McpModule.forRoot({ name: 'nest-gateway', version: '1.0.0', http: false }),
        McpModule.fromOpenApi({ namespace: 'pets', document: { swagger: '2.0', paths: {} }, baseUrl: `${api.origin}/api` }),
      ],
    })
    class BrokenModule {}
    const failure = await NestFactory.createApplicationContext(BrokenModule, { logger: false, abortOnError: false }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'INVALID_OPENAPI_DOCUMENT', message: expect.stringMatching(/^Cannot serve the OpenAPI document \(an object\) .*it is a Swagger 2\.0 document/) });
  });
});
