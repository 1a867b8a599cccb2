import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Injectable, McpComponents, McpFactory, McpModule, Module, type CanActivate, type ExecutionContext, type McpMiddleware, type McpModuleOptions, type McpProvider, type ProvidedSkill } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

/** What the SDK client may parse a custom result with: anything, as is. */
const anything = { '~standard': { version: 1 as const, vendor: 'spec', validate: (value: unknown) => ({ value }) } };
type Json = Record<string, any>;
const call = (client: TestClient, method: string, params: Json = {}): Promise<Json> => client.request({ method, params } as never, anything) as Promise<Json>;

const sha256 = (text: string | Buffer) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const skillMd = (name: string, description: string, body = 'Steps.\n') => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

const PDF = skillMd('pdf-processing', 'Fill PDF forms.', 'Read references/FORMS.md first.\n');
const FORMS = '# Forms\n\nField names map to values.\n';
const REVIEW = skillMd('code-review', 'Review a change.');

/** A skills folder: pdf-processing (SKILL.md, references/FORMS.md, scripts/fill.py) and code-review. */
function skillsFolder(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-skills-'));
  mkdirSync(path.join(root, 'pdf-processing', 'references'), { recursive: true });
  mkdirSync(path.join(root, 'pdf-processing', 'scripts'), { recursive: true });
  mkdirSync(path.join(root, 'code-review'));
  writeFileSync(path.join(root, 'pdf-processing', 'SKILL.md'), PDF);
  writeFileSync(path.join(root, 'pdf-processing', 'references', 'FORMS.md'), FORMS);
  writeFileSync(path.join(root, 'pdf-processing', 'scripts', 'fill.py'), 'print("fill")\n');
  writeFileSync(path.join(root, 'code-review', 'SKILL.md'), REVIEW);
  return root;
}

function moduleWith(options: Partial<McpModuleOptions>, providers: Function[] = []): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'skills', version: '1.0.0', ...options })], providers: providers as never[] })
  class SkillsModule {}
  return SkillsModule;
}

const folders: string[] = [];
const clients: TestClient[] = [];
async function connect(options: Partial<McpModuleOptions>, client: Parameters<typeof createTestClient>[1] = {}): Promise<TestClient> {
  const opened = await createTestClient(moduleWith(options), client);
  clients.push(opened);
  return opened;
}
function folder(): string {
  const made = skillsFolder();
  folders.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe.each(['2025-11-25', '2026-07-28'] as const)('skills from a folder (protocol %s)', (protocolVersion) => {
  const modern = protocolVersion === '2026-07-28';

  it('declares the extension (with directoryRead) and the resources capability', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    const capabilities = client.getServerCapabilities() as Json;
    expect(capabilities.extensions['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    expect(capabilities.resources).toBeDefined();
  });

  it('lists every skill with its files, SHA-256 digests and sizes, and cache attributes on 2026-07-28 only', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    const listed = await call(client, 'skills/list');
    expect(listed.skills.map((s: Json) => s.uri)).toEqual(['skill://code-review/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    const pdf = listed.skills[1];
    expect(pdf.frontmatter).toEqual({ name: 'pdf-processing', description: 'Fill PDF forms.' });
    expect(pdf.resources).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', digest: sha256(PDF), size: Buffer.byteLength(PDF) },
      { uri: 'skill://pdf-processing/references/FORMS.md', digest: sha256(FORMS), size: Buffer.byteLength(FORMS) },
      { uri: 'skill://pdf-processing/scripts/fill.py', digest: sha256('print("fill")\n'), size: 14 },
    ]);
    if (modern) expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    else expect(listed.ttlMs).toBeUndefined();
  });

  it('gets one skill, and answers -32602 for a skill it does not serve', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    const got = await call(client, 'skills/get', { uri: 'skill://code-review/SKILL.md' });
    expect(got.skill.frontmatter.name).toBe('code-review');
    expect(got.nextCursor).toBeUndefined();
    if (modern) expect(got).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    await expect(call(client, 'skills/get', { uri: 'skill://nothing/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
  });

  it('serves the files as skill:// resources whose bytes match the published digests', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', description: 'Fill PDF forms.', mimeType: 'text/markdown' }));
    const manifest = await client.readResource({ uri: 'skill://pdf-processing/SKILL.md' });
    expect(manifest.contents).toEqual([{ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF }]);
    const forms = await client.readResource({ uri: 'skill://pdf-processing/references/FORMS.md' });
    expect(sha256((forms.contents[0] as { text: string }).text)).toBe(sha256(FORMS));
    await expect(client.readResource({ uri: 'skill://pdf-processing/references/NONE.md' })).rejects.toThrow('Resource not found: skill://pdf-processing/references/NONE.md');
  });

  it("runs the application's middleware around skills/list, skills/get and resources/directory/read, as around the other methods", async () => {
    const seen: string[] = [];
    const middleware: McpMiddleware = {
      onRequest: async (context, next) => (seen.push(`request ${context.method}`), next()),
      onListSkills: async (_context, next) => {
        const listed = (await next()) as Json;
        return { ...listed, skills: listed.skills.filter((skill: Json) => skill.frontmatter.name !== 'code-review') };
      },
      onGetSkill: async (context, next) => (seen.push(`get ${context.params.uri}`), next()),
      onReadDirectory: async (context, next) => (String(context.params.uri).includes('scripts') ? { resources: [] } : next()),
    };
    const client = await connect({ skills: { directory: folder() }, middleware: [middleware] }, { protocolVersion });
    const listed = await call(client, 'skills/list');
    expect(listed.skills.map((s: Json) => s.uri)).toEqual(['skill://pdf-processing/SKILL.md']);
    expect((await call(client, 'skills/get', { uri: 'skill://code-review/SKILL.md' })).skill.frontmatter.name).toBe('code-review');
    expect((await call(client, 'resources/directory/read', { uri: 'skill://pdf-processing/scripts' })).resources).toEqual([]);
    expect((await call(client, 'resources/directory/read', { uri: 'skill://pdf-processing' })).resources).toHaveLength(3);
    expect(seen).toEqual([
      'request skills/list',
      'request skills/get',
      'get skill://code-review/SKILL.md',
      'request resources/directory/read',
      'request resources/directory/read',
    ]);
  });

  it("masks a middleware's crash on a skills method as on any other: -32603, nothing internal", async () => {
    const client = await connect({ skills: { directory: folder() }, middleware: [{ onListSkills: () => { throw new Error('secret detail'); } }] }, { protocolVersion });
    const error = await call(client, 'skills/list').catch((e: unknown) => e as Json);
    expect(error).toMatchObject({ code: -32603 });
    expect(String(error.message)).not.toContain('secret detail');
  });

  it('reads a skill folder (resources/directory/read): files with sizes, subfolders as inode/directory; -32602 for a file', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    const read = await call(client, 'resources/directory/read', { uri: 'skill://pdf-processing' });
    expect(read.resources).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(PDF) },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-processing/scripts', name: 'scripts', mimeType: 'inode/directory' },
    ]);
    const inner = await call(client, 'resources/directory/read', { uri: 'skill://pdf-processing/scripts' });
    expect(inner.resources).toEqual([{ uri: 'skill://pdf-processing/scripts/fill.py', name: 'fill.py', mimeType: 'text/x-python', size: 14 }]);
    await expect(call(client, 'resources/directory/read', { uri: 'skill://pdf-processing/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe.each(['2025-11-25', '2026-07-28'] as const)('skills built in code (protocol %s)', (protocolVersion) => {
  it('serves them as a folder is served, under a prefix', async () => {
    const notes = skillMd('release-notes', 'Write release notes.');
    const client = await connect({ skills: { prefix: 'acme', skills: { 'release-notes': { 'SKILL.md': notes, 'TEMPLATE.md': '# Notes\n' } } } }, { protocolVersion });
    const listed = await call(client, 'skills/list');
    expect(listed.skills).toEqual([
      {
        uri: 'skill://acme/release-notes/SKILL.md',
        frontmatter: { name: 'release-notes', description: 'Write release notes.' },
        resources: [
          { uri: 'skill://acme/release-notes/SKILL.md', digest: sha256(notes), size: Buffer.byteLength(notes) },
          { uri: 'skill://acme/release-notes/TEMPLATE.md', digest: sha256('# Notes\n'), size: 8 },
        ],
      },
    ]);
    const template = await client.readResource({ uri: 'skill://acme/release-notes/TEMPLATE.md' });
    expect(template.contents).toEqual([{ uri: 'skill://acme/release-notes/TEMPLATE.md', mimeType: 'text/markdown', text: '# Notes\n' }]);
  });
});

describe('skills: file contents', () => {
  it('serves bytes that are not UTF-8 as a base64 blob, with the MIME type of their extension', async () => {
    const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]);
    const client = await connect({ skills: { skills: { branding: { 'SKILL.md': skillMd('branding', 'Use the logo.'), 'logo.png': logo } } } });
    const read = await client.readResource({ uri: 'skill://branding/logo.png' });
    expect(read.contents).toEqual([{ uri: 'skill://branding/logo.png', mimeType: 'image/png', blob: Buffer.from(logo).toString('base64') }]);
    const listed = await call(client, 'skills/list');
    expect(listed.skills[0].resources).toContainEqual({ uri: 'skill://branding/logo.png', digest: sha256(Buffer.from(logo)), size: 7 });
  });

  it('refuses a file changed on disk since the folder was read (its digest no longer matches), and logs why', async () => {
    const root = folder();
    const errors: string[] = [];
    const logger = { error: (m: string, e?: unknown) => errors.push(`${m} ${e instanceof Error ? e.message : ''}`), warn: () => undefined, log: () => undefined };
    const client = await connect({ logger, skills: { directory: root, watch: false } });
    writeFileSync(path.join(root, 'pdf-processing', 'references', 'FORMS.md'), '# Forms\n\nSomething else entirely.\n');
    await expect(client.readResource({ uri: 'skill://pdf-processing/references/FORMS.md' })).rejects.toThrow();
    expect(errors.join('\n')).toContain('skill://pdf-processing/references/FORMS.md changed since the skills were loaded (its digest no longer matches)');
  });
});

describe('skills: paging', () => {
  it('pages skills/list by pageSize, never splitting an entry, and refuses a cursor it did not give', async () => {
    const client = await connect({ skills: { directory: folder(), pageSize: 1 } });
    const first = await call(client, 'skills/list');
    expect(first.skills.map((s: Json) => s.uri)).toEqual(['skill://code-review/SKILL.md']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await call(client, 'skills/list', { cursor: first.nextCursor });
    expect(second.skills.map((s: Json) => s.uri)).toEqual(['skill://pdf-processing/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
    await expect(call(client, 'skills/list', { cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('skills: paths never leave the skills folder', () => {
  it('answers a .. path as a resource it does not serve', async () => {
    const client = await connect({ skills: { directory: folder() } });
    for (const uri of ['skill://pdf-processing/../../../../etc/passwd', 'skill://pdf-processing/references/../../code-review/SKILL.md', 'skill://pdf-processing/%2e%2e/%2e%2e/etc/passwd']) {
      await expect(client.readResource({ uri })).rejects.toThrow(/Resource not found/);
    }
    await expect(call(client, 'resources/directory/read', { uri: 'skill://pdf-processing/..' })).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses a skill with a symlink pointing out of the folder, naming it (INVALID_SKILLS)', async () => {
    const root = folder();
    const outside = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-outside-'));
    folders.push(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'pdf-processing', 'references', 'secret.txt'));
    const failed = McpFactory.create(moduleWith({ skills: { directory: root } }));
    await expect(failed).rejects.toMatchObject({ code: 'INVALID_SKILLS' });
    await expect(failed).rejects.toThrow(
      `Cannot serve the skills folder '${root}' (McpModule.forRoot({ skills })):\n  pdf-processing/references/secret.txt: symlinks and other special files are not followed; copy the file instead (skill skipped)\n`,
    );
  });
});

describe('skills: bounds', () => {
  it('refuses a skill beyond the byte limit, naming it, its size and the limit', async () => {
    const failed = McpFactory.create(moduleWith({ skills: { directory: folder(), limits: { bytes: 100 } } }));
    await expect(failed).rejects.toMatchObject({ code: 'INVALID_SKILLS' });
    await expect(failed).rejects.toThrow(/pdf-processing: 3 files \/ \d+ bytes exceeds the limit of 512 files \/ 100 bytes/);
  });

  it('refuses a skill beyond the file limit and one deeper than limits.depth', async () => {
    await expect(McpFactory.create(moduleWith({ skills: { directory: folder(), limits: { files: 2 } } }))).rejects.toThrow(/pdf-processing: 3 files \/ \d+ bytes exceeds the limit of 2 files/);
    const deep = folder();
    mkdirSync(path.join(deep, 'code-review', 'a', 'b', 'c'), { recursive: true });
    writeFileSync(path.join(deep, 'code-review', 'a', 'b', 'c', 'x.md'), 'x');
    await expect(McpFactory.create(moduleWith({ skills: { directory: deep, limits: { depth: 3 } } }))).rejects.toThrow(
      "code-review/a/b/c: cannot be listed: it is more than 3 folders deep (limits.depth)",
    );
  });

  it('refuses options that name no source, or a bound that is not a positive whole number', async () => {
    await expect(McpFactory.create(moduleWith({ skills: {} }))).rejects.toThrow(
      'Cannot use McpModule.forRoot({ skills }): give either a directory (a folder of skill folders) or skills (built in code), not neither.',
    );
    await expect(McpFactory.create(moduleWith({ skills: { directory: folder(), limits: { files: 0 } } }))).rejects.toThrow(
      'Cannot use McpModule.forRoot({ skills }): limits.files is 0, not a whole number above 0.',
    );
  });
});

describe('skills: a folder that changes', () => {
  it('is scanned again, and clients hear resources/list_changed', async () => {
    const root = folder();
    const client = await connect({ skills: { directory: root } });
    const heard = new Promise<void>((resolve) => client.setNotificationHandler('notifications/resources/list_changed', () => resolve()));
    mkdirSync(path.join(root, 'triage'));
    writeFileSync(path.join(root, 'triage', 'SKILL.md'), skillMd('triage', 'Triage an issue.'));
    await heard;
    const listed = await call(client, 'skills/list');
    expect(listed.skills.map((s: Json) => s.uri)).toContain('skill://triage/SKILL.md');
    await expect(client.readResource({ uri: 'skill://triage/SKILL.md' })).resolves.toBeDefined();
  });
});

class AdaOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.auth?.subject === 'ada';
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('skills: scopes and guards (protocol %s)', (protocolVersion) => {
  it('hides skills whose scopes the caller lacks: not listed, not got, not read, their folders not read', async () => {
    const app = await McpFactory.create(moduleWith({ skills: { directory: folder(), scopes: ['skills:read'] } }));
    const granted = await createTestClient(app, { protocolVersion, auth: { subject: 'ada', scopes: ['skills:read'] } });
    const refused = await createTestClient(app, { protocolVersion, auth: { subject: 'eve', scopes: [] } });
    clients.push(refused, granted);
    expect((await call(granted, 'skills/list')).skills).toHaveLength(2);
    expect((await call(refused, 'skills/list')).skills).toEqual([]);
    await expect(call(refused, 'skills/get', { uri: 'skill://code-review/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(call(refused, 'resources/directory/read', { uri: 'skill://pdf-processing' })).rejects.toMatchObject({ code: -32602 });
    await expect(refused.readResource({ uri: 'skill://pdf-processing/references/FORMS.md' })).rejects.toBeDefined();
    await expect(granted.readResource({ uri: 'skill://pdf-processing/references/FORMS.md' })).resolves.toBeDefined();
  });

  it('applies the global guards to skills as to every resource', async () => {
    const app = await McpFactory.create(moduleWith({ skills: { directory: folder() }, guards: [AdaOnly] }));
    const ada = await createTestClient(app, { protocolVersion, auth: { subject: 'ada' } });
    const eve = await createTestClient(app, { protocolVersion, auth: { subject: 'eve' } });
    clients.push(eve, ada);
    expect((await call(ada, 'skills/list')).skills).toHaveLength(2);
    expect((await call(eve, 'skills/list')).skills).toEqual([]);
    await expect(eve.readResource({ uri: 'skill://code-review/SKILL.md' })).rejects.toBeDefined();
    await expect(call(eve, 'skills/get', { uri: 'skill://code-review/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
  });
});

const ONBOARDING = skillMd('onboarding', 'Onboard a new hire.');

/** A decorated class that is a provider of skills built in code, added as the application starts. */
@Injectable()
class Handbook implements McpProvider {
  readonly source = 'the handbook';
  skills: ProvidedSkill[] = [{ path: 'onboarding', files: { 'SKILL.md': ONBOARDING, 'CHECKLIST.md': '- laptop\n' } }];
  private changed?: () => void;

  constructor(private readonly control: McpComponents) {}

  components() {
    return { skills: this.skills };
  }

  watch(changed: () => void) {
    this.changed = changed;
    return () => (this.changed = undefined);
  }

  update(skills: ProvidedSkill[]): void {
    this.skills = skills;
    this.changed?.();
  }

  onApplicationBootstrap() {
    this.control.providers.add(this, { namespace: 'hr' });
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('skills from a provider (protocol %s)', (protocolVersion) => {
  it('serves the skills a provider lists, under its namespace, beside a folder', async () => {
    const client = await connect({ skills: { directory: folder() } }, { protocolVersion });
    expect((await call(client, 'skills/list')).skills.map((s: Json) => s.uri)).toEqual(['skill://code-review/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    const app = await McpFactory.create(moduleWith({}, [Handbook]));
    const hr = await createTestClient(app, { protocolVersion });
    clients.push(hr);
    expect((hr.getServerCapabilities() as Json).extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const listed = await call(hr, 'skills/list');
    expect(listed.skills).toEqual([
      {
        uri: 'skill://hr/onboarding/SKILL.md',
        frontmatter: { name: 'onboarding', description: 'Onboard a new hire.' },
        resources: [
          { uri: 'skill://hr/onboarding/CHECKLIST.md', digest: sha256('- laptop\n'), size: 9 },
          { uri: 'skill://hr/onboarding/SKILL.md', digest: sha256(ONBOARDING), size: Buffer.byteLength(ONBOARDING) },
        ],
      },
    ]);
    const checklist = await hr.readResource({ uri: 'skill://hr/onboarding/CHECKLIST.md' });
    expect(checklist.contents).toEqual([{ uri: 'skill://hr/onboarding/CHECKLIST.md', mimeType: 'text/markdown', text: '- laptop\n' }]);
  });

  it('replaces them when the provider reports a change (clients hear list_changed), and applies their scopes', async () => {
    const app = await McpFactory.create(moduleWith({}, [Handbook]));
    const ada = await createTestClient(app, { protocolVersion, auth: { subject: 'ada', scopes: ['hr'] } });
    const eve = await createTestClient(app, { protocolVersion, auth: { subject: 'eve', scopes: [] } });
    clients.push(eve, ada);
    // 2025-11-25: the session hears list_changed; 2026-07-28 sends it on a subscriptions/listen stream, which
    // this client does not open, so it asks until the new catalogue shows.
    const heard = new Promise<void>((resolve) => ada.setNotificationHandler('notifications/resources/list_changed', () => resolve()));
    const offboarding = skillMd('offboarding', 'Offboard a leaver.');
    app.get(Handbook).update([{ path: 'offboarding', files: { 'SKILL.md': offboarding }, scopes: ['hr'] }]);
    if (protocolVersion === '2025-11-25') await heard;
    else while ((await call(ada, 'skills/list')).skills[0]?.uri !== 'skill://hr/offboarding/SKILL.md') await new Promise((r) => setTimeout(r, 10));
    expect((await call(ada, 'skills/list')).skills.map((s: Json) => s.uri)).toEqual(['skill://hr/offboarding/SKILL.md']);
    expect((await call(eve, 'skills/list')).skills).toEqual([]);
    await expect(call(eve, 'skills/get', { uri: 'skill://hr/offboarding/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(ada.readResource({ uri: 'skill://hr/onboarding/SKILL.md' })).rejects.toThrow(/Resource not found/);
  });
});

describe('skills from a provider that cannot be served', () => {
  it('logs why and serves none of them (an oversized or misnamed skill)', async () => {
    const errors: string[] = [];
    const logger = { error: (m: string) => errors.push(m), warn: (m: string) => errors.push(m), log: () => undefined };
    @Injectable()
    class Broken extends Handbook {
      override skills: ProvidedSkill[] = [{ path: 'onboarding', files: { 'SKILL.md': skillMd('boarding', 'Misnamed.') } }];
    }
    const app = await McpFactory.create(moduleWith({ logger }, [Broken]));
    const client = await createTestClient(app);
    clients.push(client);
    // No skill served: the extension is not declared, and its methods are not answered.
    expect((client.getServerCapabilities() as Json).extensions).toBeUndefined();
    await expect(call(client, 'skills/list')).rejects.toMatchObject({ code: -32601 });
    expect(errors.join('\n')).toContain(
      "Cannot serve the skills built in code (the skill 'onboarding' from the handbook):\n  onboarding/SKILL.md: frontmatter name \"boarding\" must match the last path segment \"onboarding\" (skill skipped)",
    );
  });
});
