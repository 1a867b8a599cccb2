import 'reflect-metadata';
import { Injectable, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import * as z from 'zod';
import { bookText, type BenchSystem } from '../system';
import { clientSdk } from '../lazy';
import { AddTools, extraTools } from './mcp-reflect-extra';

/** The `book` schema of the McpServer+zod system (mcp-server.ts), given to `@Tool({ parameters })` (issue 42). */
const BookShape = z.object({
  title: z.string().min(1).max(100),
  copies: z.number().int().min(1).max(10),
  genre: z.enum(['fiction', 'science', 'history']),
  note: z.string().optional(),
  authors: z.array(z.object({ first: z.string(), last: z.string(), born: z.number().int() })),
});

@Injectable()
class ZodBookTools {
  @Tool({ description: 'Register a book', parameters: BookShape })
  book(input: z.infer<typeof BookShape>): string {
    return bookText(input);
  }
}

function zodModule(extra: number): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'mcp-reflect+zod', version: '1.0.0' })], providers: [AddTools, ZodBookTools, extraTools(extra)] as never })
  class ZodBenchModule {}
  return ZodBenchModule;
}

/** mcp-reflect whose `book` tool is the zod schema of McpServer+zod, validated by zod: the two compared on one schema. */
export const mcpReflectZod: BenchSystem = {
  name: 'mcp-reflect+zod',
  async inMemory(extra) {
    const app = await McpFactory.create(zodModule(extra));
    const { Client, InMemoryTransport } = clientSdk();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await app.connect(serverTransport);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    return { client, transport: clientTransport, close: async () => (await client.close(), await app.close()) };
  },
};
