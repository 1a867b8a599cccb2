import 'reflect-metadata';
import {
  CONTEXT,
  Inject,
  Injectable,
  McpReflectError,
  Module,
  ModuleRef,
  Scope,
  Tool,
  type ModuleOptions,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { testModule, trackApplications } from '../support/bootstrap';

const appModule = (options: ModuleOptions = {}): Function => testModule('module-ref', options);
const bootstrap = trackApplications();


/** A root module named AppModule that imports McpModule plus whatever the test adds. */


function thrownBy(fn: () => unknown): McpReflectError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(McpReflectError);
  return error as McpReflectError;
}

function scopedMessage(name: string): string {
  return (
    `Cannot get ${name}: it is request-scoped or transient, so there is no single instance to return.\n` +
    `Fix: inject it into a provider of the same or a shorter-lived scope, or call await moduleRef.resolve(${name}) during a call.`
  );
}

function notFoundMessage(name: string, module: string): string {
  return (
    `Cannot get ${name} from ${module}: no provider with that token is visible there.\n` +
    `Fix: add it to the providers of ${module}, or pass { strict: false } to look in every module.`
  );
}

/** A feature module whose Locator holds the module's ModuleRef, next to providers of every scope. */
function featureGraph() {
  @Injectable()
  class Clock {
    now() {
      return 1;
    }
  }
  @Module({ providers: [Clock], exports: [Clock] })
  class ClockModule {}

  @Injectable()
  class Unrelated {}
  @Module({ providers: [Unrelated] })
  class UnrelatedModule {}

  @Injectable({ scope: Scope.REQUEST })
  class RequestRepo {}
  @Injectable({ scope: Scope.TRANSIENT })
  class Draft {}
  @Injectable()
  class Service {}
  @Injectable()
  class Locator {
    constructor(readonly moduleRef: ModuleRef) {}
  }
  @Module({
    imports: [ClockModule],
    providers: [Locator, Service, RequestRepo, Draft, { provide: 'LIMIT', useValue: 10 }],
  })
  class FeatureModule {}

  return { Clock, ClockModule, Unrelated, UnrelatedModule, RequestRepo, Draft, Service, Locator, FeatureModule };
}

describe('ModuleRef', () => {
  describe('get()', () => {
    it('returns a singleton of its own module (strict by default)', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      expect(moduleRef).toBeInstanceOf(ModuleRef);
      expect(moduleRef.get(g.Service)).toBe(app.get<InstanceType<typeof g.Service>>(g.Service));
      expect(moduleRef.get(g.Locator)).toBe(app.get<InstanceType<typeof g.Locator>>(g.Locator));
      expect(moduleRef.get('LIMIT')).toBe(10);
    });

    it('does not look into imported modules when strict (PROVIDER_NOT_FOUND)', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      const error = thrownBy(() => moduleRef.get(g.Clock));

      expect(error.code).toBe('PROVIDER_NOT_FOUND');
      expect(error.message).toBe(notFoundMessage('Clock', 'FeatureModule'));
    });

    it('finds providers of imported and unrelated modules with { strict: false }', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule, g.UnrelatedModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      expect(moduleRef.get(g.Clock, { strict: false })).toBe(app.get<InstanceType<typeof g.Clock>>(g.Clock));
      expect(moduleRef.get(g.Clock, { strict: false }).now()).toBe(1);
      expect(moduleRef.get(g.Unrelated, { strict: false })).toBe(app.get<InstanceType<typeof g.Unrelated>>(g.Unrelated));
      expect(moduleRef.get(g.Service, { strict: false })).toBe(app.get<InstanceType<typeof g.Service>>(g.Service));
    });

    it('refuses a request-scoped provider (SCOPED_PROVIDER)', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));

      const error = thrownBy(() => app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef.get(g.RequestRepo));

      expect(error.code).toBe('SCOPED_PROVIDER');
      expect(error.message).toBe(scopedMessage('RequestRepo'));
    });

    it('refuses a transient provider (SCOPED_PROVIDER)', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));

      const error = thrownBy(() => app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef.get(g.Draft));

      expect(error.code).toBe('SCOPED_PROVIDER');
      expect(error.message).toBe(scopedMessage('Draft'));
    });

    it('refuses a provider that is request-scoped because it depends on one', async () => {
      @Injectable()
      class Session {
        constructor(@Inject(CONTEXT) readonly context: unknown) {}
      }
      @Injectable()
      class Holder {
        constructor(readonly moduleRef: ModuleRef) {}
      }

      const app = await bootstrap(appModule({ providers: [Session, Holder] }));

      const error = thrownBy(() => app.get<Holder>(Holder).moduleRef.get(Session));
      expect(error.code).toBe('SCOPED_PROVIDER');
      expect(error.message).toBe(scopedMessage('Session'));
    });

    it('refuses a token no module provides (PROVIDER_NOT_FOUND), strict or not', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      const strict = thrownBy(() => moduleRef.get('MISSING'));
      expect(strict.code).toBe('PROVIDER_NOT_FOUND');
      expect(strict.message).toBe(notFoundMessage(`'MISSING'`, 'FeatureModule'));

      const MISSING = Symbol('MISSING');
      const loose = thrownBy(() => moduleRef.get(MISSING, { strict: false }));
      expect(loose.code).toBe('PROVIDER_NOT_FOUND');
      expect(loose.message).toBe(notFoundMessage('Symbol(MISSING)', 'FeatureModule'));
    });
  });

  describe('resolve()', () => {
    it('gives a fresh request-scoped instance each time outside a request', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      const first = await moduleRef.resolve(g.RequestRepo);
      const second = await moduleRef.resolve(g.RequestRepo);

      expect(first).toBeInstanceOf(g.RequestRepo);
      expect(second).toBeInstanceOf(g.RequestRepo);
      expect(first).not.toBe(second);
    });

    it('gives the singleton for a default-scoped provider, and rejects a missing token', async () => {
      const g = featureGraph();
      const app = await bootstrap(appModule({ imports: [g.FeatureModule] }));
      const moduleRef = app.get<InstanceType<typeof g.Locator>>(g.Locator).moduleRef;

      await expect(moduleRef.resolve(g.Service)).resolves.toBe(app.get<InstanceType<typeof g.Service>>(g.Service));
      await expect(moduleRef.resolve('MISSING')).rejects.toMatchObject({
        code: 'PROVIDER_NOT_FOUND',
        message: notFoundMessage(`'MISSING'`, 'FeatureModule'),
      });
    });

    it('builds a new scope per call in a singleton tool class (no request scope is entered there)', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class RequestRepo {}
      @Injectable()
      class Tools {
        constructor(readonly moduleRef: ModuleRef) {}
        @Tool()
        async same(): Promise<boolean> {
          const a = await this.moduleRef.resolve(RequestRepo);
          const b = await this.moduleRef.resolve(RequestRepo);
          return a instanceof RequestRepo && a === b;
        }
      }
      const client = await createTestClient(appModule({ providers: [Tools, RequestRepo] }));
      try {
        const result = await client.callTool({ name: 'same', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'false' }]);
      } finally {
        await client.close();
      }
    });

    it('gives a request-scoped tool class the instance of its own request', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class RequestRepo {}
      @Injectable({ scope: Scope.REQUEST })
      class ScopedTools {
        constructor(
          readonly repo: RequestRepo,
          readonly moduleRef: ModuleRef,
        ) {}
        @Tool()
        async same(): Promise<boolean> {
          return (await this.moduleRef.resolve(RequestRepo)) === this.repo;
        }
      }
      const client = await createTestClient(appModule({ providers: [ScopedTools, RequestRepo] }));
      try {
        const result = await client.callTool({ name: 'same', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'true' }]);
      } finally {
        await client.close();
      }
    });

    it('rejects a CONTEXT-dependent provider outside a request with an McpReflectError that says why', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class Audit {
        constructor(@Inject(CONTEXT) readonly context: unknown) {}
      }
      @Injectable()
      class Holder {
        constructor(readonly moduleRef: ModuleRef) {}
      }
      const app = await bootstrap(appModule({ providers: [Audit, Holder] }));

      const error: unknown = await app
        .get<Holder>(Holder)
        .moduleRef.resolve(Audit)
        .then(
          () => new Error('expected resolve() to fail'),
          (e: unknown) => e,
        );

      expect(error).toBeInstanceOf(McpReflectError);
      expect((error as McpReflectError).code).toBe('OUTSIDE_REQUEST');
      expect((error as Error).message).toBe(
        `Cannot provide Symbol(mcp-reflect:context) outside a request: it exists only while an MCP request is served.\n` +
          `Fix: inject it only into request-scoped providers and tool classes (@Injectable({ scope: Scope.REQUEST })), which are built during a call.`,
      );
    });
  });

  describe('create()', () => {
    it('builds a class that is not a provider, injecting its constructor dependencies from the module', async () => {
      @Injectable()
      class Clock {}
      @Module({ providers: [Clock], exports: [Clock] })
      class ClockModule {}
      @Injectable()
      class Formatter {}
      @Injectable()
      class Factory {
        constructor(readonly moduleRef: ModuleRef) {}
      }
      @Module({ imports: [ClockModule], providers: [Factory, Formatter, { provide: 'LIMIT', useValue: 10 }] })
      class ReportsModule {}
      @Injectable()
      class Report {
        constructor(
          readonly formatter: Formatter,
          readonly clock: Clock,
          @Inject('LIMIT') readonly limit: number,
        ) {}
      }
      const app = await bootstrap(appModule({ imports: [ReportsModule] }));
      const moduleRef = app.get<Factory>(Factory).moduleRef;

      const first = await moduleRef.create(Report);
      const second = await moduleRef.create(Report);

      expect(first).toBeInstanceOf(Report);
      expect(first.formatter).toBe(app.get<Formatter>(Formatter));
      expect(first.clock).toBe(app.get<Clock>(Clock));
      expect(first.limit).toBe(10);
      expect(second).not.toBe(first);
      expect(() => app.get<Report>(Report)).toThrow(McpReflectError);
    });

    it('gives a transient dependency of the created class its own instance', async () => {
      @Injectable({ scope: Scope.TRANSIENT })
      class Buffer {}
      @Injectable()
      class Factory {
        constructor(readonly moduleRef: ModuleRef) {}
      }
      @Injectable()
      class Job {
        constructor(readonly buffer: Buffer) {}
      }
      const app = await bootstrap(appModule({ providers: [Factory, Buffer] }));

      const a = await app.get<Factory>(Factory).moduleRef.create(Job);
      const b = await app.get<Factory>(Factory).moduleRef.create(Job);

      expect(a.buffer).toBeInstanceOf(Buffer);
      expect(a.buffer).not.toBe(b.buffer);
    });
  });
});
