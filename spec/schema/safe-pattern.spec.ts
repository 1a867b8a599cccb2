import { isSafePattern, patternProblem, withSafePatterns, type DroppedPattern } from '../../lib/schema/safe-pattern';

/** The rule for patterns from others (OpenAPI documents, proxied tools), issue 38 item 13: refused ones backtrack catastrophically. */
describe('patternProblem: the patterns a validator may run for someone else', () => {
  const NESTED = 'a repeated group holds another repetition (as (a+)+ does), which can take exponential time to match';
  const ALIKE = 'a repeated group holds alternatives that can start alike (as (a|ab)* does), which can take exponential time to match';

  it('refuses nested repetitions, repeated alternatives that start alike, back-references, deep nesting and what does not compile', () => {
    for (const pattern of ['^(a+)+$', '(a*)*b', '^(\\w+\\s?)*$', '(.*a){20}', '^(a?){25}a{25}$', '^(\\d{1,3})+$']) expect({ pattern, why: patternProblem(pattern) }).toEqual({ pattern, why: NESTED });
    for (const pattern of ['^(a|a)*$', '^(a|aa)+$', '^(a|)+$', '^(?:\\w|-)+$', '^(?:A|\\u0041)+$']) expect({ pattern, why: patternProblem(pattern) }).toEqual({ pattern, why: ALIKE });
    expect(patternProblem('(a)\\1')).toBe('it has a back-reference, which can take exponential time to match');
    expect(patternProblem('(?<x>a)\\k<x>')).toBe('it has a back-reference, which can take exponential time to match');
    expect(patternProblem(`${'('.repeat(70)}a${')'.repeat(70)}`)).toBe('its groups nest more than 64 deep');
    expect(patternProblem('(unclosed')).toBe('it does not compile as a Unicode regular expression');
    expect(patternProblem('\\-')).toBe('it does not compile as a Unicode regular expression'); // valid without the u flag only
  });

  it("accepts what real documents hold (GitHub's every pattern) and delimited repetitions", () => {
    const accepted = [
      '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$',
      '^sha256:[a-f0-9]{64}$',
      '^[A-Za-z0-9.\\-_]+$',
      '^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ',
      '^([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)$',
      '^refs/(heads|tags|pull)/.*$',
      '[a-z]+_token_[0-9]+',
      '^\\d+\\.\\d+\\.\\d+$',
      '^\\p{L}+$',
      '^[\\w.-]+@[\\w-]+(\\.[\\w-]+)+$',
      '^[a-z]+(?:-[a-z]+)*$',
      '^(?:\\d+,)*\\d+$',
      '^(\\d{1,3}\\.){3}\\d{1,3}$',
      '^(?:a|b)*c$',
      '^(?:-|_)+$',
      '((ab)*c)*',
    ];
    for (const pattern of accepted) expect({ pattern, why: patternProblem(pattern) }).toEqual({ pattern, why: undefined });
    expect(isSafePattern('^[a-z]+$')).toBe(true);
    expect(isSafePattern('^(a+)+$')).toBe(false);
  });

  it('what it accepts answers a hostile string at once', () => {
    const hostile = `${'a'.repeat(5_000)}-${'1'.repeat(5_000)}!`;
    for (const pattern of ['^[a-z]+(?:-[a-z]+)*$', '^(?:\\d+,)*\\d+$', '^[\\w.-]+@[\\w-]+(\\.[\\w-]+)+$', '^(?:a|b)*c$', '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$']) {
      const started = process.hrtime.bigint();
      new RegExp(pattern, 'u').test(hostile);
      expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
    }
  });
});

describe('withSafePatterns: a schema from elsewhere without the patterns it may not run', () => {
  it('leaves out unsafe patterns and patternProperties entries, names each, and never changes its input', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', pattern: '^(a+)+$' }, b: { type: 'string', pattern: '^b$' }, list: { type: 'array', items: { type: 'string', pattern: '(x|x)*' } } },
      patternProperties: { '(y+)+': { type: 'string' }, '^z': { type: 'number' } },
      $defs: { D: { anyOf: [{ type: 'string', pattern: '(a)\\1' }] } },
    };
    const before = JSON.stringify(schema);
    const dropped: DroppedPattern[] = [];
    expect(withSafePatterns(schema, (d) => dropped.push(d))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string', pattern: '^b$' }, list: { type: 'array', items: { type: 'string' } } },
      patternProperties: { '^z': { type: 'number' } },
      $defs: { D: { anyOf: [{ type: 'string' }] } },
    });
    expect(JSON.stringify(schema)).toBe(before);
    expect(dropped.map((d) => `${d.pointer} ${d.pattern}`)).toEqual([
      '#/properties/a/pattern ^(a+)+$',
      '#/properties/list/items/pattern (x|x)*',
      '#/patternProperties/(y+)+ (y+)+',
      '#/$defs/D/anyOf/0/pattern (a)\\1',
    ]);
    const safe = { type: 'object', properties: { b: { type: 'string', pattern: '^b$' } } };
    expect(withSafePatterns(safe, () => undefined)).toBe(safe);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { items: deep };
    expect(() => withSafePatterns(deep, () => undefined)).toThrow(RangeError);
  });
});
