import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
import {
  APP_FILTER,
  APP_INTERCEPTOR,
  APP_PIPE,
  Args,
  Catch,
  Injectable,
  InvalidArgumentsError,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  ToolError,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentMetadata,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type McpInterceptor,
  type PipeTransform,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';

/** Every enhancer writes here, so a spec can read the order they ran in. */
const trail: string[] = [];

const guard = (name: string): CanActivate => ({
  canActivate: () => {
    trail.push(`guard ${name}`);
    return true;
  },
});

const interceptor = (name: string): McpInterceptor => ({
  async intercept(_context: ExecutionContext, next: CallHandler) {
    trail.push(`before ${name}`);
    const value = await next.handle();
    trail.push(`after ${name}`);
    return value;
  },
});

const pipe = (name: string): PipeTransform => ({
  transform(value: unknown, metadata: ArgumentMetadata) {
    trail.push(`pipe ${name} ${metadata.type}:${String(metadata.data ?? '')}#${metadata.index}=${JSON.stringify(value)}`);
    return value;
  },
});

class Upper implements PipeTransform<string, string> {
  transform(value: string): string {
    return value.toUpperCase();
  }
}

class NotBlank implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (value.trim() === '') throw new InvalidArgumentsError([`${String(metadata.data)}: must not be blank`]);
    return value.trim();
  }
}

class Oops extends Error {}

@Catch(Oops)
class OopsFilter implements ExceptionFilter<Oops> {
  catch(error: Oops, host: ArgumentsHost): string {
    trail.push(`filter oops (${host.getType()})`);
    return `recovered from ${error.message}`;
  }
}

@Catch(RangeError)
class MethodRangeFilter implements ExceptionFilter {
  catch(error: RangeError): never {
    trail.push('filter method range');
    throw new ToolError(`Out of range: ${error.message}. Try a smaller number.`);
  }
}

@Catch(RangeError)
class ClassRangeFilter implements ExceptionFilter {
  catch(): string {
    trail.push('filter class range');
    return 'class filter';
  }
}

@Catch()
class EverythingFilter implements ExceptionFilter {
  catch(error: unknown): never {
    trail.push('filter everything');
    throw error;
  }
}

class Shout {
  @IsString() text!: string;
  @IsInt() @Min(1) times!: number;
}

@Injectable()
@UseGuards(guard('class'))
@UseInterceptors(interceptor('class'))
@UsePipes(pipe('class'))
@UseFilters(ClassRangeFilter)
class Ordered {
  @UseGuards(guard('method'))
  @UseInterceptors(interceptor('method 1'), interceptor('method 2'))
  @UsePipes(pipe('method'))
  @Tool()
  add(@Param() a: number, @Param('b', Upper) b: string): string {
    trail.push(`method ${a} ${b}`);
    return `${a}${b}`;
  }

  @Tool()
  shout(@Args() shout: Shout): string {
    return shout.text.repeat(shout.times);
  }

  @Tool()
  greet(@Param('name', NotBlank) name: string): string {
    return `Hello ${name}`;
  }

  @UseFilters(MethodRangeFilter)
  @Tool()
  range(@Param() n: number): string {
    throw new RangeError(`${n} is too big`);
  }

  @Tool()
  classRange(): string {
    throw new RangeError('x');
  }

  @Tool()
  oops(): string {
    throw new Oops('a bad day');
  }

  @Tool()
  crash(): string {
    throw new Error('secret detail');
  }

  @Resource('docs://oops')
  brokenDoc(): string {
    throw new Oops('a missing doc');
  }

  @ResourceTemplate('docs://pages/{page}')
  page(@Param('page', { type: 'integer' }) page: number): string {
    return `page ${page}`;
  }

  @Prompt()
  hello(@Param('who', Upper) who: string): string {
    return `Hello ${who}`;
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'order',
      version: '1.0.0',
      logger: { error() {}, warn() {} },
      guards: [guard('global')],
      interceptors: [interceptor('global')],
      pipes: [pipe('global')],
      filters: [EverythingFilter],
    }),
  ],
  providers: [
    Ordered,
    { provide: APP_INTERCEPTOR, useValue: interceptor('app') },
    { provide: APP_PIPE, useValue: pipe('app') },
    { provide: APP_FILTER, useClass: OopsFilter },
  ],
})
class OrderModule {}

describe('the order of enhancers', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(OrderModule);
  });
  afterAll(() => client.close());
  beforeEach(() => {
    trail.length = 0;
  });

  it('runs guards, interceptors (unwinding in reverse), validation, pipes and the method in NestJS order', async () => {
    expect(answer(await client.callTool({ name: 'add', arguments: { a: '1', b: 'x' } }))).toEqual({ text: '1X', isError: false });
    expect(trail).toEqual([
      'guard global',
      'guard class',
      'guard method',
      'before global',
      'before app',
      'before class',
      'before method 1',
      'before method 2',
      // Pipes see validated (coerced) values: global, APP_PIPE, class, method, then the parameter's own.
      'pipe global param:a#0=1',
      'pipe app param:a#0=1',
      'pipe class param:a#0=1',
      'pipe method param:a#0=1',
      'pipe global param:b#1="x"',
      'pipe app param:b#1="x"',
      'pipe class param:b#1="x"',
      'pipe method param:b#1="x"',
      'method 1 X',
      'after method 2',
      'after method 1',
      'after class',
      'after app',
      'after global',
    ]);
  });

  it('gives @Args() DTOs to pipes after class-validator', async () => {
    expect(answer(await client.callTool({ name: 'shout', arguments: { text: 'ab', times: 2 } }))).toEqual({ text: 'abab', isError: false });
    expect(trail.filter((line) => line.startsWith('pipe global'))).toEqual(['pipe global args:#0={"text":"ab","times":2}']);
    trail.length = 0;
    expect(answer(await client.callTool({ name: 'shout', arguments: { text: 'ab', times: 0 } }))).toEqual({
      text: 'Invalid arguments for tool shout: times: must not be less than 1',
      isError: true,
    });
    expect(trail.some((line) => line.startsWith('pipe'))).toBe(false);
  });

  it('answers a pipe that rejects a value like a validation failure', async () => {
    expect(answer(await client.callTool({ name: 'greet', arguments: { name: '  Ada ' } }))).toEqual({ text: 'Hello Ada', isError: false });
    expect(answer(await client.callTool({ name: 'greet', arguments: { name: '   ' } }))).toEqual({
      text: 'Invalid arguments for tool greet: name: must not be blank',
      isError: true,
    });
    // The failed call rejected every interceptor's next.handle(): only the first call unwound.
    expect(trail.filter((line) => line.startsWith('after'))).toEqual(['after class', 'after app', 'after global']);
    expect(trail.filter((line) => line.startsWith('before'))).toHaveLength(6);
  });

  it('lets the most specific matching filter answer: method, then class, then global', async () => {
    expect(answer(await client.callTool({ name: 'range', arguments: { n: 99 } }))).toEqual({
      text: 'Out of range: 99 is too big. Try a smaller number.',
      isError: true,
    });
    expect(trail).toContain('filter method range');
    expect(trail).not.toContain('filter class range');
    trail.length = 0;
    expect(answer(await client.callTool({ name: 'classRange', arguments: {} }))).toEqual({ text: 'class filter', isError: false });
    trail.length = 0;
    // forRoot filters come before APP_FILTER providers: the catch-all rethrows, the default handling answers.
    expect(answer(await client.callTool({ name: 'oops', arguments: {} }))).toEqual({ text: "Error calling tool 'oops'", isError: true });
    expect(trail).toContain('filter everything');
    expect(trail).not.toContain('filter oops (mcp)');
  });

  it('keeps masking on for what a filter rethrows', async () => {
    expect(answer(await client.callTool({ name: 'crash', arguments: {} }))).toEqual({ text: "Error calling tool 'crash'", isError: true });
  });

  it('runs the pipeline for resources, templates and prompts', async () => {
    await expect(client.readResource({ uri: 'docs://oops' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("Error reading resource 'docs://oops'") });
    expect(trail.slice(0, 3)).toEqual(['guard global', 'guard class', 'before global']);
    trail.length = 0;
    expect((await client.readResource({ uri: 'docs://pages/3' })).contents).toEqual([{ uri: 'docs://pages/3', mimeType: 'text/plain', text: 'page 3' }]);
    expect(trail).toContain('pipe global param:page#0=3');
    await expect(client.readResource({ uri: 'docs://pages/x' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Invalid resource URI 'docs://pages/x'") });
    trail.length = 0;
    const prompt = await client.getPrompt({ name: 'hello', arguments: { who: 'ada' } });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Hello ADA' });
    expect(trail[0]).toBe('guard global');
  });
});
