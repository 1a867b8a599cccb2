import { MemoryAuthStore } from 'mcp-reflect/auth-server';
import { TokenSealer } from '../../lib/auth/server/sealed-tokens';

describe('MemoryAuthStore', () => {
  it('forgets entries at the end of their lifetime', async () => {
    const store = new MemoryAuthStore();
    await store.set('a', 'x', 0.05);
    await store.add('s', 'm', 0.05);
    expect([await store.get('a'), await store.members('s')]).toEqual(['x', ['m']]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect([await store.get('a'), await store.members('s')]).toEqual([undefined, []]);
  });

  it('is bounded in bytes: the least recently used entries go first', async () => {
    const store = new MemoryAuthStore({ maxBytes: 64 * 1024 });
    for (let i = 0; i < 100; i++) await store.set(`k${i}`, 'v'.repeat(1024), 60);
    expect(await store.get('k0')).toBeUndefined();
    expect(await store.get('k99')).toBe('v'.repeat(1024));
    let kept = 0;
    for (let i = 0; i < 100; i++) if ((await store.get(`k${i}`)) !== undefined) kept++;
    expect(kept).toBeLessThan(32);
  });
});

describe('sealed upstream tokens (AES-256-GCM)', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  it('open with the same key and subject only; an altered text opens to nothing', () => {
    const sealer = new TokenSealer(key);
    const sealed = sealer.seal('{"accessToken":"gho_secret"}', 'upstream:alice');
    expect(sealed).not.toContain('gho_secret');
    expect(sealer.open(sealed, 'upstream:alice')).toBe('{"accessToken":"gho_secret"}');
    expect(sealer.open(sealed, 'upstream:mallory')).toBeUndefined();
    expect(new TokenSealer(Buffer.alloc(32, 8).toString('base64')).open(sealed, 'upstream:alice')).toBeUndefined();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[20] ^= 1;
    expect(sealer.open(bytes.toString('base64url'), 'upstream:alice')).toBeUndefined();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new TokenSealer('c2hvcnQ=')).toThrow('keys.upstreamTokens must be 32 bytes in base64 (got 5 bytes).');
  });
});
