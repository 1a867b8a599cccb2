import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Args, BootstrapErrorCode, Injectable, McpFactory, McpModule, Module, Tool, type McpModuleOptions } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

class Profile {
  @IsString()
  name!: string;

  /** Undecorated, but initialised: visible at run time, and left out of the schema. */
  nickname = '';
}

@Injectable()
class ProfileTools {
  @Tool()
  save(@Args() profile: Profile): string {
    return `${profile.name}/${profile.nickname}`;
  }
}

function appWith(warnings: McpModuleOptions['warnings'], lines: string[]) {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'undecorated',
        version: '1.0.0',
        warnings,
        logger: { error: (m: string) => lines.push(`error: ${m}`), warn: (m: string) => lines.push(m) },
      }),
    ],
    providers: [ProfileTools],
  })
  class AppModule {}
  return AppModule;
}

describe('an initialised DTO property without a decorator is never dropped silently', () => {
  it('warns through the logger, naming the class, the property, the method and the fixes', async () => {
    const lines: string[] = [];
    const client = await createTestClient(appWith(undefined, lines));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Profile\.nickname \(a DTO of ProfileTools\.save\) has an initialiser but no decorator/);
    expect(lines[0]).toContain('@Field()');
    expect(lines[0]).toContain('npx mcp-reflect generate');
    // What the warning says: the property is not in the schema, and a client's value does not arrive.
    const { tools } = await client.listTools();
    expect(Object.keys(tools[0].inputSchema.properties ?? {})).toEqual(['name']);
    const result = await client.callTool({ name: 'save', arguments: { name: 'Ada', nickname: 'A' } });
    expect((result.content as { text: string }[])[0].text).toBe('Ada/');
    await client.close();
  });

  it("'error' stops the bootstrap; false is silent", async () => {
    const lines: string[] = [];
    await expect(McpFactory.create(appWith({ undecoratedProperties: 'error' }, lines))).rejects.toMatchObject({
      code: BootstrapErrorCode.UndecoratedProperty,
      message: expect.stringContaining('Profile.nickname'),
    });
    const app = await McpFactory.create(appWith({ undecoratedProperties: false }, lines));
    expect(lines).toEqual([]);
    await app.close();
  });

  it('with generated types the property is described and arrives', async () => {
    const lines: string[] = [];
    const client = await createTestClient(appWith(undefined, lines), {
      metadata: {
        version: 1,
        generator: 'mcp-reflect@test',
        classes: [
          { name: 'ProfileTools', file: 'src/profile.ts', ref: ProfileTools, methods: { save: { fingerprint: 'save(profile)', params: [{ name: 'profile', index: 0, schema: { type: 'object' }, class: 'Profile' }] } } },
          {
            name: 'Profile',
            file: 'src/profile.ts',
            ref: Profile,
            properties: {
              name: { schema: { type: 'string' }, decorated: true },
              nickname: { schema: { type: 'string' }, optional: true, default: '', decorated: false },
            },
          },
        ],
      },
    });
    expect(lines).toEqual([]);
    const { tools } = await client.listTools();
    expect(tools[0].inputSchema.properties).toEqual({ name: { type: 'string' }, nickname: { type: 'string', default: '' } });
    const result = await client.callTool({ name: 'save', arguments: { name: 'Ada', nickname: 'A' } });
    expect((result.content as { text: string }[])[0].text).toBe('Ada/A');
    await client.close();
  });
});
