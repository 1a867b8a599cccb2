import { literalValue, readParameters } from '../../lib/invocation/parameter-names';

/** The parameter list as the compiled method's source shows it (the input of the name-based binding). */
describe('readParameters', () => {
  const read = (source: string) => readParameters(new Function(`return function ${source}`)());

  it.each([
    ['f(a, b, c) {}', ['a', 'b', 'c']],
    ['f(a /* , b */, c) {}', ['a', 'c']],
    ['f(a, // b,\n c) {}', ['a', 'c']],
    ['f(/* first */ a, /* second, third */ b) {}', ['a', 'b']],
    ["f(a = '/* not a comment */', b = \"x, y\", c = `${1}, 2`) {}", ['a', 'b', 'c']],
    ['f(a = (1, 2), b = [3, 4], c = { d: 5, e: 6 }) {}', ['a', 'b', 'c']],
    ['f(a = "//", b) {}', ['a', 'b']],
  ])('%s', (source, names) => {
    expect(read(source)?.map((p) => (p.kind === 'pattern' ? '{pattern}' : p.name))).toEqual(names);
  });

  it('reports rest and destructured parameters as such', () => {
    expect(read('f(a, { b, c }, [d], ...rest) {}')).toEqual([
      { kind: 'name', name: 'a' },
      { kind: 'pattern' },
      { kind: 'pattern' },
      { kind: 'rest', name: 'rest' },
    ]);
  });

  it('cannot read native or bound functions', () => {
    expect(readParameters(Math.max)).toBeUndefined();
    expect(readParameters(function f(this: unknown, a: number) { return a; }.bind(null))).toBeUndefined();
  });
});

describe('default initialisers', () => {
  const read = (source: string) => readParameters(new Function(`return function ${source}`)());

  it('reads the initialiser as written', () => {
    expect(read("f(a, b = 2, c = 'x, y', d = today(), e = { k: [1, 2] }) {}")).toEqual([
      { kind: 'name', name: 'a' },
      { kind: 'name', name: 'b', initialiser: '2' },
      { kind: 'name', name: 'c', initialiser: "'x, y'" },
      { kind: 'name', name: 'd', initialiser: 'today()' },
      { kind: 'name', name: 'e', initialiser: '{ k: [1, 2] }' },
    ]);
  });

  it.each([
    ['2', 2],
    ['-1.5', -1.5],
    ["'metric'", 'metric'],
    ["'it\\'s'", "it's"],
    ["'a\\nb'", 'a\nb'],
    ["'caf\\u00e9'", 'café'],
    ["'say \"hi\"'", 'say "hi"'],
    ["'back\\\\slash'", 'back\\slash'],
    ['"x"', 'x'],
    ['`plain`', 'plain'],
    ['true', true],
    ['null', null],
    ['[1, 2]', [1, 2]],
    ['{"a": 1}', { a: 1 }],
  ])('takes the literal %s as %j', (text, value) => {
    expect(literalValue(text)).toEqual({ value });
  });

  it.each(['today()', '`${x}`', 'A.B', '{ a: 1 }', 'new Date()', "'\\x41'"])('leaves the expression %s unevaluated', (text) => {
    expect(literalValue(text)).toBeUndefined();
  });
});
