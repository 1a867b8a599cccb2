import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import {
  BadRequestException,
  Injectable as NestInjectable,
  InternalServerErrorException,
  Module as NestModule,
  Scope as NestScope,
  ServiceUnavailableException,
  UseGuards as NestUseGuards,
  UseInterceptors as NestUseInterceptors,
  type CanActivate,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  BootstrapError,
  Injectable,
  McpFactory,
  McpModule as StandaloneMcpModule,
  Module,
  Param,
  Resource,
  Scope,
  Tool,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ExceptionFilter,
  type McpInterceptor,
  type PipeTransform,
} from 'mcp-reflect';
import { McpModule, McpService } from 'mcp-reflect/nest';

/**
 * Issue 38, 10: decorators of the other framework on a served component are refused at bootstrap, never skipped:
 * mcp-reflect's own `@UseGuards()` & co., `@Injectable()` and `@Module()` under the Nest host, Nest's under the
 * standalone server. And a 5xx `HttpException` is masked like any internal error (4xx stays client-facing).
 */
const quiet = { warnings: { unprovidedComponents: false } };

class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}
class Passthrough implements McpInterceptor {
  intercept(_context: unknown, next: { handle(): Promise<unknown> }) {
    return next.handle();
  }
}
class Keep implements PipeTransform {
  transform(value: unknown) {
    return value;
  }
}
class Swallow implements ExceptionFilter {
  catch() {
    return 'swallowed';
  }
}

async function bootNest(providers: Function[], imports: unknown[] = []): Promise<BootstrapError> {
  @NestModule({ imports: [McpModule.forRoot({ name: 'foreign', version: '1.0.0', http: false, ...quiet }), ...(imports as never[])], providers: providers as never[] })
  class App {}
  const app = await NestFactory.createApplicationContext(App, { logger: false, abortOnError: false }).catch((error: unknown) => error);
  if (!(app instanceof Error)) {
    await (app as { close(): Promise<void> }).close();
    throw new Error('The Nest application booted');
  }
  expect(app).toBeInstanceOf(BootstrapError);
  return app as BootstrapError;
}

async function bootStandalone(providers: Function[]): Promise<BootstrapError> {
  @Module({ imports: [StandaloneMcpModule.forRoot({ name: 'foreign', version: '1.0.0', ...quiet })], providers: providers as never[] })
  class App {}
  const app = await McpFactory.create(App).catch((error: unknown) => error);
  if (!(app instanceof Error)) {
    await (app as { close(): Promise<void> }).close();
    throw new Error('The standalone application booted');
  }
  expect(app).toBeInstanceOf(BootstrapError);
  return app as BootstrapError;
}

describe("mcp-reflect's own decorators under the Nest host", () => {
  it("refuses @UseGuards() of 'mcp-reflect' on a component method, naming class, method and the import", async () => {
    @NestInjectable()
    class AdminTools {
      @UseGuards(DenyAll)
      @Tool()
      purge(): string {
        return 'purged';
      }
    }
    const error = await bootNest([AdminTools]);
    expect(error.code).toBe('INVALID_ENHANCER');
    expect(error.message).toBe(
      "Cannot serve AdminTools.purge (provider in App) in the Nest application: the method has @UseGuards() of 'mcp-reflect', which the Nest host does not run (it runs Nest's own enhancers), so its guards would never run, and the calls they should refuse would be served.\n" +
        "Fix: import { UseGuards } from '@nestjs/common' instead of 'mcp-reflect'.",
    );
  });

  it("refuses @UseInterceptors() of 'mcp-reflect' on a component class", async () => {
    @NestInjectable()
    @UseInterceptors(Passthrough)
    class ReportTools {
      @Tool()
      report(): string {
        return 'report';
      }
    }
    const error = await bootNest([ReportTools]);
    expect(error.code).toBe('INVALID_ENHANCER');
    expect(error.message).toBe(
      "Cannot serve ReportTools (provider in App) in the Nest application: the class has @UseInterceptors() of 'mcp-reflect', which the Nest host does not run (it runs Nest's own enhancers), so its interceptors would never run.\n" +
        "Fix: import { UseInterceptors } from '@nestjs/common' instead of 'mcp-reflect'.",
    );
  });

  it("refuses @UsePipes() and @UseFilters() of 'mcp-reflect' on a resource and a tool", async () => {
    @NestInjectable()
    class PipedTools {
      @UsePipes(Keep)
      @Resource('config://piped', { name: 'piped' })
      piped(): string {
        return 'piped';
      }
    }
    const piped = await bootNest([PipedTools]);
    expect(piped.code).toBe('INVALID_ENHANCER');
    expect(piped.message).toBe(
      "Cannot serve PipedTools.piped (provider in App) in the Nest application: the method has @UsePipes() of 'mcp-reflect', which the Nest host does not run (it runs Nest's own enhancers), so its pipes would never run.\n" +
        "Fix: import { UsePipes } from '@nestjs/common' instead of 'mcp-reflect'.",
    );
    @NestInjectable()
    class FilteredTools {
      @UseFilters(Swallow)
      @Tool()
      fails(): string {
        throw new Error('no');
      }
    }
    const filtered = await bootNest([FilteredTools]);
    expect(filtered.message).toBe(
      "Cannot serve FilteredTools.fails (provider in App) in the Nest application: the method has @UseFilters() of 'mcp-reflect', which the Nest host does not run (it runs Nest's own enhancers), so its exception filters would never run.\n" +
        "Fix: import { UseFilters } from '@nestjs/common' instead of 'mcp-reflect'.",
    );
  });

  it("refuses a component provider decorated with @Injectable({ scope }) of 'mcp-reflect'", async () => {
    @Injectable({ scope: Scope.REQUEST })
    class ScopedTools {
      @Tool()
      who(): string {
        return 'me';
      }
    }
    const error = await bootNest([ScopedTools]);
    expect(error.code).toBe('INVALID_PROVIDER');
    expect(error.message).toBe(
      "Cannot serve ScopedTools (provider in App) in the Nest application: it is decorated with @Injectable({ scope }) of 'mcp-reflect', whose options Nest does not read, so it would be built once and shared by every request.\n" +
        "Fix: import { Injectable, Scope } from '@nestjs/common' instead of 'mcp-reflect' (mcp-reflect/nest serves Nest's providers with Nest's scopes).",
    );
  });

  it("refuses a module of the application decorated with @Module() of 'mcp-reflect'", async () => {
    @NestInjectable()
    class WeatherTools {
      @Tool()
      forecast(): string {
        return 'sunny';
      }
    }
    @Module({ providers: [WeatherTools] })
    class WeatherModule {}
    const error = await bootNest([], [WeatherModule]);
    expect(error.code).toBe('INVALID_MODULE');
    expect(error.message).toBe(
      "Cannot serve the Nest application: its module WeatherModule is decorated with @Module() of 'mcp-reflect', which Nest does not read, so its imports, providers and exports would be silently ignored.\n" +
        "Fix: import { Module } from '@nestjs/common' instead of 'mcp-reflect' for WeatherModule.",
    );
  });
});

describe("Nest's decorators under the standalone server", () => {
  it("refuses @UseGuards() of '@nestjs/common' on a component method", async () => {
    @Injectable()
    class AdminTools {
      @NestUseGuards(DenyAll)
      @Tool()
      purge(): string {
        return 'purged';
      }
    }
    const error = await bootStandalone([AdminTools]);
    expect(error.code).toBe('INVALID_ENHANCER');
    expect(error.message).toBe(
      "Cannot serve AdminTools.purge (provider in App): the method has @UseGuards() of '@nestjs/common', which the standalone server does not run (it runs mcp-reflect's own enhancers), so its guards would never run, and the calls they should refuse would be served.\n" +
        "Fix: import { UseGuards } from 'mcp-reflect' instead of '@nestjs/common'; or serve it from a Nest application with McpModule of 'mcp-reflect/nest'.",
    );
  });

  it("refuses @UseInterceptors() of '@nestjs/common' on a component class", async () => {
    @Injectable()
    @NestUseInterceptors(Passthrough as never)
    class ReportTools {
      @Tool()
      report(): string {
        return 'report';
      }
    }
    const error = await bootStandalone([ReportTools]);
    expect(error.code).toBe('INVALID_ENHANCER');
    expect(error.message).toBe(
      "Cannot serve ReportTools (provider in App): the class has @UseInterceptors() of '@nestjs/common', which the standalone server does not run (it runs mcp-reflect's own enhancers), so its interceptors would never run.\n" +
        "Fix: import { UseInterceptors } from 'mcp-reflect' instead of '@nestjs/common'; or serve it from a Nest application with McpModule of 'mcp-reflect/nest'.",
    );
  });

  it("refuses @Injectable({ scope }) of '@nestjs/common' on a component class", async () => {
    @NestInjectable({ scope: NestScope.REQUEST })
    class ScopedTools {
      @Tool()
      who(): string {
        return 'me';
      }
    }
    const error = await bootStandalone([ScopedTools]);
    expect(error.code).toBe('INVALID_PROVIDER');
    expect(error.message).toBe(
      "Cannot serve ScopedTools (provider in App): it is decorated with @Injectable({ scope }) of '@nestjs/common', whose options the standalone server does not read, so it would be built once and shared by every request.\n" +
        "Fix: import { Injectable, Scope } from 'mcp-reflect' instead of '@nestjs/common'; or serve it from a Nest application with McpModule of 'mcp-reflect/nest'.",
    );
  });
});

@NestInjectable()
class FailingHttpTools {
  @Tool()
  crash(): string {
    throw new InternalServerErrorException('db password is hunter2');
  }

  @Tool()
  refuse(@Param('city') city: string): string {
    throw new BadRequestException(`No city named ${city}`);
  }

  @Resource('config://upstream', { name: 'upstream' })
  upstream(): string {
    throw new ServiceUnavailableException('upstream at 10.0.0.7:5432 refused the connection');
  }
}

describe("Nest's HttpException through a real client", () => {
  it('masks a 5xx like any internal error, and keeps a 4xx client-facing', async () => {
    const logged: string[] = [];
    const logger = { error: (message: string, error?: unknown) => void logged.push(`${message} ${String(error)}`), warn: () => undefined };
    @NestModule({ imports: [McpModule.forRoot({ name: 'http-errors', version: '1.0.0', http: false, logger, ...quiet })], providers: [FailingHttpTools] })
    class App {}
    const app = await NestFactory.createApplicationContext(App, { logger: false });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.get(McpService).connect(serverSide);
    const client = new Client({ name: 'http-errors-spec', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect(await client.callTool({ name: 'crash', arguments: {} })).toEqual({ isError: true, content: [{ type: 'text', text: "Error calling tool 'crash'" }] });
      expect(await client.callTool({ name: 'refuse', arguments: { city: 'Atlantis' } })).toEqual({ isError: true, content: [{ type: 'text', text: 'No city named Atlantis' }] });
      const read = await client.readResource({ uri: 'config://upstream' }).catch((error: unknown) => error as { code: number; message: string });
      expect(read).toMatchObject({ code: -32603 });
      expect((read as { message: string }).message).not.toContain('10.0.0.7');
      expect(logged.join('\n')).toContain('db password is hunter2'); // the detail is logged, not sent
      expect(logged.join('\n')).toContain('10.0.0.7');
    } finally {
      await client.close();
      await app.close();
    }
  });
});
