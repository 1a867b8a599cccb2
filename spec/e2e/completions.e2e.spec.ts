import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  BootstrapError,
  BootstrapErrorCode,
  Complete,
  type CompletionContext,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  ResourceTemplate,
  ToolError,
  type Provider,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const CITIES: Record<string, string[]> = {
  fr: ['Paris', 'Lyon', 'Lille', 'Marseille'],
  de: ['Berlin', 'Bonn', 'Leipzig'],
};

const seenContexts: CompletionContext[] = [];
const logged: { message: string; error?: unknown }[] = [];
const logger = { error: (message: string, error?: unknown) => void logged.push({ message, error }), warn: () => undefined };

@Injectable()
class Travel {
  @Prompt({ description: 'Plan a trip', complete: { season: ['spring', 'summer', 'autumn', 'winter', 'sun'] } })
  plan(
    @Param('country') country: string,
    @Param('city') city: string,
    @Param('item') item: string,
    @Param('season', { optional: true }) season?: string,
  ): string {
    return `${item} in ${city}, ${country} (${season ?? 'any season'})`;
  }

  @ResourceTemplate('weather://{country}/{city}', { complete: { country: ['fr', 'de', 'dk'] } })
  weather(@Param('country') country: string, @Param('city') city: string): string {
    return `${city}, ${country}: sunny`;
  }

  @Complete({ prompt: 'plan', argument: 'item' })
  items(value: string): string[] {
    return Array.from({ length: 150 }, (_, i) => `item-${String(i).padStart(3, '0')}`).filter((v) => v.startsWith(value));
  }

  @Complete({ prompt: 'plan', argument: 'city' })
  cities(value: string, context: CompletionContext): string[] {
    seenContexts.push(context);
    return (CITIES[context.arguments.country] ?? []).filter((c) => c.toLowerCase().startsWith(value.toLowerCase()));
  }

  @Complete({ resourceTemplate: 'weather://{country}/{city}', argument: 'city' })
  async weatherCities(value: string, context: CompletionContext): Promise<string[]> {
    return (CITIES[context.arguments.country] ?? []).filter((c) => c.startsWith(value));
  }

  @Complete({ prompt: 'plan', argument: 'country' })
  countries(value: string): string[] {
    if (value === 'xx') throw new ToolError('No countries start with xx: try a two-letter ISO code.');
    if (value === 'boom') throw new Error('database password is hunter2');
    return Object.keys(CITIES).filter((c) => c.startsWith(value));
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'completions', version: '1.0.0', logger })], providers: [Travel] })
class TravelModule {}

const prompt = { type: 'ref/prompt' as const, name: 'plan' };
const template = { type: 'ref/resource' as const, uri: 'weather://{country}/{city}' };

describe.each(['2025-11-25', '2026-07-28'] as const)('completion/complete (%s)', (protocolVersion) => {
  it('declares the completions capability', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      expect(client.getServerCapabilities()?.completions).toEqual({});
    } finally {
      await client.close();
    }
  });

  it('sends at most 100 values, with total and hasMore', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      const all = await client.complete({ ref: prompt, argument: { name: 'item', value: '' } });
      expect(all.completion.values).toHaveLength(100);
      expect(all.completion.values[0]).toBe('item-000');
      expect(all.completion.values[99]).toBe('item-099');
      expect(all.completion.total).toBe(150);
      expect(all.completion.hasMore).toBe(true);

      const some = await client.complete({ ref: prompt, argument: { name: 'item', value: 'item-14' } });
      expect(some.completion).toEqual({
        values: Array.from({ length: 10 }, (_, i) => `item-14${i}`),
        total: 10,
        hasMore: false,
      });
    } finally {
      await client.close();
    }
  });

  it('passes context.arguments to the completer', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      seenContexts.length = 0;
      const fr = await client.complete({ ref: prompt, argument: { name: 'city', value: 'l' }, context: { arguments: { country: 'fr' } } });
      expect(fr.completion).toEqual({ values: ['Lyon', 'Lille'], total: 2, hasMore: false });
      const de = await client.complete({ ref: prompt, argument: { name: 'city', value: 'b' }, context: { arguments: { country: 'de' } } });
      expect(de.completion.values).toEqual(['Berlin', 'Bonn']);
      const none = await client.complete({ ref: prompt, argument: { name: 'city', value: '' } });
      expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
      expect(seenContexts).toEqual([{ arguments: { country: 'fr' } }, { arguments: { country: 'de' } }, { arguments: {} }]);

      const weather = await client.complete({ ref: template, argument: { name: 'city', value: 'L' }, context: { arguments: { country: 'fr' } } });
      expect(weather.completion.values).toEqual(['Lyon', 'Lille']);
    } finally {
      await client.close();
    }
  });

  it('filters static complete lists of @Prompt and @ResourceTemplate by prefix', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      expect((await client.complete({ ref: prompt, argument: { name: 'season', value: 's' } })).completion).toEqual({
        values: ['spring', 'summer', 'sun'],
        total: 3,
        hasMore: false,
      });
      expect((await client.complete({ ref: prompt, argument: { name: 'season', value: 'su' } })).completion.values).toEqual(['summer', 'sun']);
      expect((await client.complete({ ref: prompt, argument: { name: 'season', value: '' } })).completion.values).toEqual([
        'spring',
        'summer',
        'autumn',
        'winter',
        'sun',
      ]);
      expect((await client.complete({ ref: prompt, argument: { name: 'season', value: 'x' } })).completion.values).toEqual([]);
      expect((await client.complete({ ref: template, argument: { name: 'country', value: 'd' } })).completion.values).toEqual(['de', 'dk']);
    } finally {
      await client.close();
    }
  });

  it('answers an argument without a completer with no values', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).completion.values).toEqual([]);
      expect(
        (await client.complete({ ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } })).completion.values,
      ).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('turns a ToolError thrown by a completer into -32603 with its message; other errors are masked', async () => {
    const client = await createTestClient(TravelModule, { protocolVersion });
    try {
      await expect(client.complete({ ref: prompt, argument: { name: 'country', value: 'xx' } })).rejects.toMatchObject({
        code: ProtocolErrorCode.InternalError,
        message: 'No countries start with xx: try a two-letter ISO code.',
      });
      logged.length = 0;
      await expect(client.complete({ ref: prompt, argument: { name: 'country', value: 'boom' } })).rejects.toMatchObject({
        code: ProtocolErrorCode.InternalError,
        message: "Error completing 'country'",
      });
      expect(logged).toEqual([{ message: "Completing 'country' (Travel.countries) threw:", error: new Error('database password is hunter2') }]);
    } finally {
      await client.close();
    }
  });
});

describe(`${BootstrapErrorCode.UnknownCompletionTarget}`, () => {
  async function failure(...providers: Provider[]): Promise<BootstrapError> {
    @Module({ imports: [McpModule.forRoot({ name: 'errors', version: '1.0.0', })], providers })
    class AppModule {}
    const error: unknown = await McpFactory.create(AppModule).then(
      () => new Error('expected McpFactory.create() to fail'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BootstrapError);
    expect((error as BootstrapError).code).toBe(BootstrapErrorCode.UnknownCompletionTarget);
    return error as BootstrapError;
  }

  @Injectable()
  class Prompts {
    @Prompt()
    review(@Param('code') code: string, @Param('language') language: string): string {
      return `${language}: ${code}`;
    }

    @ResourceTemplate('repos://{owner}/{repo}')
    repo(@Param('owner') owner: string, @Param('repo') repo: string): string {
      return `${owner}/${repo}`;
    }
  }

  it('names a prompt that does not exist', async () => {
    @Injectable()
    class Completers {
      @Complete({ prompt: 'reviw', argument: 'language' })
      languages(): string[] {
        return [];
      }
    }
    const error = await failure(Prompts, Completers);
    expect(error.message).toBe(
      "Cannot register the completer Completers.languages: there is no prompt 'reviw'.\n" +
        'Fix: point @Complete() at an existing prompt name.',
    );
  });

  it('names an argument the prompt does not have', async () => {
    @Injectable()
    class Completers {
      @Complete({ prompt: 'review', argument: 'lang' })
      languages(): string[] {
        return [];
      }
    }
    const error = await failure(Prompts, Completers);
    expect(error.message).toBe(
      "Cannot register the completer Completers.languages: prompt 'review' has no argument 'lang' (it has: code, language).\n" +
        'Fix: set @Complete({ argument }) to one of those names.',
    );
  });

  it('names a resource template that does not exist', async () => {
    @Injectable()
    class Completers {
      @Complete({ resourceTemplate: 'repos://{owner}', argument: 'owner' })
      owners(): string[] {
        return [];
      }
    }
    const error = await failure(Prompts, Completers);
    expect(error.message).toBe(
      "Cannot register the completer Completers.owners: there is no resource template 'repos://{owner}'.\n" +
        'Fix: point @Complete() at an existing URI template, written exactly as in @ResourceTemplate().',
    );
  });

  it('names a variable the template does not have', async () => {
    @Injectable()
    class Completers {
      @Complete({ resourceTemplate: 'repos://{owner}/{repo}', argument: 'branch' })
      branches(): string[] {
        return [];
      }
    }
    const error = await failure(Prompts, Completers);
    expect(error.message).toBe(
      "Cannot register the completer Completers.branches: resource template 'repos://{owner}/{repo}' has no variable 'branch' (it has: owner, repo).\n" +
        'Fix: set @Complete({ argument }) to one of those names.',
    );
  });
});
