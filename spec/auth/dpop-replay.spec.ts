import { ReplayCache } from '../../lib/auth/dpop-replay';

/** The replay cache alone: bounded per key and in all, refusing rather than forgetting, freeing what ages out. */
describe('DPoP replay cache', () => {
  it('remembers a proof per key: the same jti of another key is another proof', () => {
    const cache = new ReplayCache(10, 5);
    const until = Date.now() + 60_000;
    expect([cache.record('A', 'j1', until), cache.record('A', 'j1', until), cache.record('B', 'j1', until)]).toEqual(['new', 'replayed', 'new']);
  });

  it("refuses a key's proofs past its share, never evicting another key's, and refuses everyone past the total", () => {
    const cache = new ReplayCache(6, 3);
    const until = Date.now() + 60_000;
    expect(cache.record('victim', 'v1', until)).toBe('new');
    const flood = Array.from({ length: 10_000 }, (_, i) => cache.record('flooder', `f${i}`, until));
    expect(flood.slice(0, 4)).toEqual(['new', 'new', 'new', 'key-full']);
    expect(new Set(flood.slice(3))).toEqual(new Set(['key-full']));
    expect(cache.record('victim', 'v1', until)).toBe('replayed');
    expect([cache.record('victim', 'v2', until), cache.record('third', 't1', until), cache.record('fourth', 'x', until)]).toEqual(['new', 'new', 'full']);
    expect(cache.size).toBe(6);
  });

  it('frees the room of proofs that aged out (they could not be accepted again anyway)', async () => {
    const cache = new ReplayCache(4, 2);
    expect([cache.record('A', '1', Date.now() + 20), cache.record('A', '2', Date.now() + 20), cache.record('A', '3', Date.now() + 60_000)]).toEqual(['new', 'new', 'key-full']);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past their age and the once-a-second sweep
    expect([cache.record('A', '3', Date.now() + 60_000), cache.record('A', '4', Date.now() + 60_000), cache.record('A', '5', Date.now() + 60_000)]).toEqual(['new', 'new', 'key-full']);
  });
});
