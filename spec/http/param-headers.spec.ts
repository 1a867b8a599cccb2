import { decodeParamHeader, scanParamHeaders } from '../../lib/server/param-headers';

describe('SEP-2243 header rules (hand-written schemas)', () => {
  it('finds declarations reached through properties, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        target: { type: 'object', properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } } },
      },
    };
    expect(scanParamHeaders(schema)).toEqual({
      declarations: [
        { path: ['region'], header: 'Mcp-Param-Region', type: 'string' },
        { path: ['target', 'zone'], header: 'Mcp-Param-Zone', type: 'integer' },
      ],
    });
  });

  it.each([
    [{ type: 'object', 'x-mcp-header': 'Root' }, "<root>: x-mcp-header is only allowed on a property reached through 'properties' alone"],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } } }, "a.<items>: x-mcp-header is only allowed on a property reached through 'properties' alone"],
    [{ type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A B' } } }, 'a: x-mcp-header "A B" is not an RFC 9110 token'],
    [
      { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' }, b: { type: 'string', 'x-mcp-header': 'a' } } },
      "x-mcp-header 'a' is declared twice (also as 'A'; names compare ignoring case)",
    ],
  ])('refuses an invalid declaration (%#)', (schema, invalid) => {
    expect(scanParamHeaders(schema)).toEqual({ invalid });
  });

  it('keeps the declarations of a number property (checked all the same, as the SDK does), with the reason', () => {
    expect(scanParamHeaders({ type: 'object', properties: { a: { type: 'number', 'x-mcp-header': 'A' } } })).toEqual({
      declarations: [{ path: ['a'], header: 'Mcp-Param-A', type: 'number' }],
      invalid: 'a: x-mcp-header needs a string, integer or boolean property, not number',
    });
  });

  it('decodes the Base64 sentinel strictly and takes anything else literally', () => {
    expect(decodeParamHeader('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeParamHeader('=?base64?w6lsw6h2ZQ==?=')).toBe('élève');
    expect(decodeParamHeader('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeParamHeader('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeParamHeader('=?base64?/w==?=')).toBeUndefined(); // not UTF-8
    expect(decodeParamHeader('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeParamHeader('plain value')).toBe('plain value');
  });
});
