import 'reflect-metadata';
import * as z from 'zod';
import { compileMethod, IMPLICIT_ARGS } from '../../lib/invocation';
import { GeneratedTypes } from '../../lib/metadata';
import { NO_ENHANCERS, Pipeline } from '../../lib/pipeline';
import { standardJsonSchema } from '../../lib/schema';
import { SchemaCompiler } from '../../lib/validation';

/**
 * The class has no decorator, so no parameter types: a schema given whole needs none (a bundle without decorator
 * metadata serves it). A Standard Schema tool keeps the pipeline's synchronous path when its library answers synchronously (issue 42):
 * validation by the library, binding of its output, the method, the conversion, with no promise on the way.
 */
class Booking {
  book(args: { nights: number }): string {
    return `${args.nights} nights`;
  }
}

const compiler = new SchemaCompiler(false);
const pipelineOf = (schema: z.ZodType) => {
  const site = { owner: 'tool book', position: '@Tool({ parameters })' };
  const compiled = compileMethod(
    { target: Booking, instance: new Booking(), types: GeneratedTypes.none },
    'book',
    'tool book',
    compiler,
    { schema: standardJsonSchema(schema, 'input', site), standard: schema },
    IMPLICIT_ARGS,
  );
  return new Pipeline<unknown, undefined>({
    compiled,
    enhancers: NO_ENHANCERS,
    component: { kind: 'tool', name: 'book', method: 'tools/call' },
    openScope: () => ({ run: <T>(fn: () => T) => fn() }) as never,
    convert: (value) => ({ value }),
    invalid: (issues) => ({ invalid: issues }),
    fail: (error) => ({ failed: String(error) }),
    denied: () => ({ denied: true }),
  });
};

describe('a Standard Schema in the pipeline', () => {
  it('answers a valid call synchronously when the library does (an invalid one, as for every schema, on the general path)', async () => {
    const pipeline = pipelineOf(z.object({ nights: z.number().int().min(1).default(2) }));
    expect(pipeline.call({}, undefined, undefined)).toEqual({ value: '2 nights' });
    expect(await pipeline.call({ nights: 0 }, undefined, undefined)).toEqual({ invalid: ['nights: Too small: expected number to be >=1'] });
  });

  it('answers with a promise when the library has asynchronous rules, and awaits its verdict', async () => {
    const pipeline = pipelineOf(z.object({ nights: z.number().refine(async (n) => n < 10, { message: 'is too many' }) }));
    const valid = pipeline.call({ nights: 3 }, undefined, undefined);
    expect(valid).toBeInstanceOf(Promise);
    expect(await valid).toEqual({ value: '3 nights' });
    expect(await pipeline.call({ nights: 12 }, undefined, undefined)).toEqual({ invalid: ['nights: is too many'] });
    expect(await pipeline.call({ nights: 4 }, undefined, undefined)).toEqual({ value: '4 nights' });
  });
});
