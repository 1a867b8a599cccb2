import { clientKeyOf, isLoopbackAddress } from '../../lib/server/client-address';

/**
 * Issue 38, item 8: the key every per-client bound counts a client by. A host is given a /64 of IPv6 and may use
 * any address in it: one key per address would give it billions of clients' shares. A dual-stack socket names an
 * IPv4 peer `::ffff:a.b.c.d`: it is the same client as `a.b.c.d`.
 */
describe('clientKeyOf: the key per-client bounds count by', () => {
  it('counts two IPv6 addresses of one /64 as one client, and another /64 as another', () => {
    expect(clientKeyOf('2001:db8:1:2::1')).toBe(clientKeyOf('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(clientKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(clientKeyOf('2001:db8:1:3::1')).not.toBe(clientKeyOf('2001:db8:1:2::1'));
  });

  it('reads every spelling of one address alike: compressed, full, upper case, bracketed, with a zone', () => {
    const key = clientKeyOf('2001:db8::1');
    for (const spelling of ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:DB8::1', '[2001:db8::1]', '2001:db8::1%eth0', '2001:db8:0:0::1']) {
      expect(clientKeyOf(spelling)).toBe(key);
    }
  });

  it('groups by the prefix given (ipv6Prefix)', () => {
    expect(clientKeyOf('2001:db8:1:2::1', 48)).toBe(clientKeyOf('2001:db8:1:ffff::1', 48));
    expect(clientKeyOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(clientKeyOf('2001:db8:1:2::1', 128)).not.toBe(clientKeyOf('2001:db8:1:2::2', 128));
    expect(clientKeyOf('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1:0:0:0:0:0/56');
    expect(clientKeyOf('2001:db8:1:2ff:3:4:5:6', 60)).toBe('2001:db8:1:2f0:0:0:0:0/60');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, and IPv4 addresses one by one', () => {
    expect(clientKeyOf('::ffff:127.0.0.5')).toBe('127.0.0.5');
    expect(clientKeyOf('::ffff:7f00:5')).toBe('127.0.0.5');
    expect(clientKeyOf('::FFFF:203.0.113.9')).toBe(clientKeyOf('203.0.113.9'));
    expect(clientKeyOf('203.0.113.9')).not.toBe(clientKeyOf('203.0.113.10'));
  });

  it('keeps other keys as they are, and a long one as its digest', () => {
    expect(clientKeyOf('tenant-a')).toBe('tenant-a');
    expect(clientKeyOf('issuer|subject')).toBe('issuer|subject');
    for (const notAnAddress of ['1::2::3', '2001:db8::g', '1.2.3.4::', '300.1.1.1', '::ffff:1.2.3.400']) expect(clientKeyOf(notAnAddress)).toBe(notAnAddress);
    const long = 'x'.repeat(500);
    expect(clientKeyOf(long)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(clientKeyOf(long)).toBe(clientKeyOf('x'.repeat(500)));
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127/8, ::1 and 127/8 mapped into IPv6', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.2']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '::', '::2', '::ffff:10.0.0.1', 'fd00::1', 'localhost', '']) expect(isLoopbackAddress(address)).toBe(false);
  });
});
