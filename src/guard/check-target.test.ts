import { describe, expect, it } from 'vitest';
import { createGuard } from './guarded-fetch.js';
import { GuardError } from './guard-error.js';
import type { GuardLookup, LookupAddress } from './options.js';

/** A resolver from a table; counts its calls; never touches DNS. */
function stubLookup(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup: GuardLookup = async (hostname) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (answers === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address): LookupAddress => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
  };
  return { lookup, calls };
}

async function refusal(promise: Promise<unknown>): Promise<GuardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardError);
  return error as GuardError;
}

// Every odd spelling of a refused address: the URL parser normalises the IPv4 ones, the IPv6
// ones are judged on what they are; none of them needs a lookup.
const LITERALS: Array<[string, string, string]> = [
  ['http://127.0.0.1/', '127.0.0.1', 'loopback'],
  ['http://127.1/', '127.0.0.1', 'loopback'],
  ['http://0x7f000001/', '127.0.0.1', 'loopback'],
  ['http://2130706433/', '127.0.0.1', 'loopback'],
  ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
  ['http://0x7f.0.0.1/', '127.0.0.1', 'loopback'],
  ['http://017700000001/', '127.0.0.1', 'loopback'],
  ['http://127.0.0.1./', '127.0.0.1', 'loopback'],
  ['http://%31%32%37.0.0.1/', '127.0.0.1', 'loopback'],
  ['http://127。0。0。1/', '127.0.0.1', 'loopback'],
  ['http://0/', '0.0.0.0', 'unspecified'],
  ['http://[::1]/', '::1', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', '::1', 'loopback'],
  ['http://[::]/', '::', 'unspecified'],
  ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'ipv4Mapped'],
  ['http://[::ffff:7f00:1]/', '::ffff:7f00:1', 'ipv4Mapped'],
  ['http://[::127.0.0.1]/', '::7f00:1', 'ipv4Compatible'],
  ['http://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1', 'loopback'],
  ['http://10.0.0.1:8080/x', '10.0.0.1', 'private'],
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'metadata'],
  ['http://[fd00:ec2::254]/', 'fd00:ec2::254', 'metadata'],
  ['http://100.100.100.200/', '100.100.100.200', 'metadata'],
  ['https://[fe80::1]/', 'fe80::1', 'linkLocal'],
  ['http://100.64.1.1/', '100.64.1.1', 'carrierGradeNat'],
  ['http://[fc00::1]/', 'fc00::1', 'uniqueLocal'],
  ['http://224.0.0.1/', '224.0.0.1', 'multicast'],
  ['http://255.255.255.255/', '255.255.255.255', 'broadcast'],
];

describe('guard.check: addresses written in the URL', () => {
  it.each(LITERALS)('%s is refused: %s is %s', async (url, address, reason) => {
    const { lookup, calls } = stubLookup({});
    const error = await refusal(createGuard({ lookup }).check(url));
    expect(error.code).toBe('GUARD_BLOCKED');
    expect(error.details).toMatchObject({ address, reason });
    expect(error.message).toContain(reason);
    expect(calls).toEqual([]);
  });

  it('lets a public address through without a lookup', async () => {
    const { lookup, calls } = stubLookup({});
    const checked = await createGuard({ lookup }).check('https://8.8.8.8/dns');
    expect(checked).toEqual({
      url: 'https://8.8.8.8/dns',
      hostname: '8.8.8.8',
      addresses: ['8.8.8.8'],
    });
    expect(calls).toEqual([]);
  });

  it('lets an allow-listed address through whatever its spelling', async () => {
    const guard = createGuard({ allow: ['127.0.0.1', '::1'], lookup: stubLookup({}).lookup });
    expect((await guard.check('http://0x7f000001:8080/')).addresses).toEqual(['127.0.0.1']);
    expect((await guard.check('http://[::1]/')).addresses).toEqual(['::1']);
    // Mapped IPv6 is not the allow-listed IPv4 address as written.
    expect((await refusal(guard.check('http://[::ffff:127.0.0.1]/'))).code).toBe('GUARD_BLOCKED');
  });
});

describe('guard.check: names', () => {
  it.each([
    ['http://localhost/', 'loopback'],
    ['http://localhost./', 'loopback'],
    ['http://LOCALHOST:3000/', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['http://metadata.google.internal./', 'metadata'],
  ])('%s is refused by name (%s), before any lookup', async (url, reason) => {
    const { lookup, calls } = stubLookup({ localhost: ['8.8.8.8'] });
    const error = await refusal(createGuard({ lookup }).check(url));
    expect(error.code).toBe('GUARD_BLOCKED');
    expect(error.details.reason).toBe(reason);
    expect(calls).toEqual([]);
  });

  it('resolves a name once and checks every address', async () => {
    const { lookup, calls } = stubLookup({ 'public.test': ['8.8.8.8', '2606:4700:4700::1111'] });
    const checked = await createGuard({ lookup }).check('http://public.test/a');
    expect(checked.addresses).toEqual(['8.8.8.8', '2606:4700:4700::1111']);
    expect(calls).toEqual(['public.test']);
  });

  it('refuses a name when any of its addresses is refused, in whatever order', async () => {
    for (const answers of [
      ['8.8.8.8', '10.0.0.1'],
      ['10.0.0.1', '8.8.8.8'],
    ]) {
      const { lookup } = stubLookup({ 'mixed.test': answers });
      const error = await refusal(createGuard({ lookup }).check('http://mixed.test/'));
      expect(error.code).toBe('GUARD_BLOCKED');
      expect(error.details).toMatchObject({ address: '10.0.0.1', reason: 'private' });
      expect(error.message).toContain('"mixed.test" resolves to 10.0.0.1, which is private');
    }
  });

  it('refuses a name that resolves to loopback, and one that resolves to garbage', async () => {
    const { lookup } = stubLookup({ 'evil.test': ['127.0.0.1'], 'odd.test': ['127.1'] });
    const guard = createGuard({ lookup });
    expect((await refusal(guard.check('http://evil.test/'))).details.reason).toBe('loopback');
    expect((await refusal(guard.check('http://odd.test/'))).details.reason).toBe('invalid');
  });

  it('exempts a hop whose host name as written is allow-listed, or whose address is', async () => {
    const { lookup } = stubLookup({
      'intra.test': ['10.0.0.7'],
      // The name goes to the resolver as written: a trailing dot is a fully qualified name.
      'intra.test.': ['10.0.0.7'],
      'other.test': ['10.0.0.8'],
    });
    const guard = createGuard({ lookup, allow: ['INTRA.test.', '10.0.0.8'] });
    expect((await guard.check('http://intra.test/')).addresses).toEqual(['10.0.0.7']);
    expect((await guard.check('http://intra.test./')).addresses).toEqual(['10.0.0.7']);
    expect((await guard.check('http://other.test/')).addresses).toEqual(['10.0.0.8']);
    expect(await guard.check('http://localhost/').catch((e: GuardError) => e.code)).toBe(
      'GUARD_BLOCKED',
    );
    const named = createGuard({
      lookup: stubLookup({ 'localhost.': ['127.0.0.1'] }).lookup,
      allow: ['localhost'],
    });
    expect((await named.check('http://localhost./')).addresses).toEqual(['127.0.0.1']);
  });

  it('lets localhost through when the list covers the address it stands for, without DNS', async () => {
    const { lookup, calls } = stubLookup({ localhost: ['8.8.8.8'] });
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8']]) {
      const guard = createGuard({ lookup, allow });
      expect((await guard.check('http://localhost:3000/')).addresses).toEqual(['127.0.0.1']);
      expect((await guard.check('http://api.localhost/')).addresses).toEqual(['127.0.0.1']);
    }
    expect(
      (await createGuard({ lookup, allow: ['::1'] }).check('http://localhost/')).addresses,
    ).toEqual(['::1']);
    expect(
      await refusal(createGuard({ lookup, allow: ['10.0.0.0/8'] }).check('http://localhost/')),
    ).toMatchObject({ code: 'GUARD_BLOCKED' });
    expect(calls).toEqual([]);
  });

  it('fails (FETCH_FAILED) on a name that does not resolve or resolves to nothing', async () => {
    const { lookup } = stubLookup({ 'empty.test': [] });
    const guard = createGuard({ lookup });
    const missing = await refusal(guard.check('http://missing.test/'));
    expect(missing.code).toBe('FETCH_FAILED');
    expect(missing.message).toContain('ENOTFOUND');
    expect((await refusal(guard.check('http://empty.test/'))).code).toBe('FETCH_FAILED');
  });

  it('times the lookup out with the rest of the chain', async () => {
    const guard = createGuard({ lookup: () => new Promise(() => {}), timeoutMs: 50 });
    expect((await refusal(guard.check('http://slow.test/'))).code).toBe('GUARD_TIMEOUT');
  });
});

describe('guard.check: URLs the guard will not fetch', () => {
  it.each([
    ['file:///etc/passwd', 'only http: and https:'],
    ['ftp://example.com/', 'only http: and https:'],
    ['gopher://127.0.0.1:70/', 'only http: and https:'],
    ['data:text/plain,hi', 'only http: and https:'],
    ['http://user:pass@example.com/', 'credentials'],
    ['http://user@example.com/', 'credentials'],
    ['https://:secret@example.com/', 'credentials'],
    ['not a url', 'is not a URL'],
    ['http://exa mple.com/', 'is not a URL'],
    ['http://[fe80::1%25eth0]/', 'is not a URL'],
    ['http://1.2.3.4.5/', 'is not a URL'],
  ])('%s: GUARD_BAD_URL (%s)', async (url, text) => {
    const { lookup, calls } = stubLookup({ 'example.com': ['8.8.8.8'] });
    const error = await refusal(createGuard({ lookup }).check(url));
    expect(error.code).toBe('GUARD_BAD_URL');
    expect(error.message).toContain(text);
    expect(calls).toEqual([]);
  });

  it('leaves the credentials out of the message', async () => {
    const error = await refusal(createGuard().check('http://user:s3cret@example.com/x'));
    expect(error.message).not.toContain('s3cret');
    expect(error.details.url).toBe('http://example.com/x');
  });

  it('escapes control characters and bidi overrides of a URL in its messages', async () => {
    const error = await refusal(createGuard().check('\u202ehttp://x/\u001b[2J'));
    expect(error.message).toContain('\\u202e');
    expect(error.message).toContain('\\x1b');
    expect(error.message).not.toMatch(/[\u202e\u001b]/);
  });
});

describe('createGuard options', () => {
  it.each([
    [{ maxRedirects: -1 }, RangeError],
    [{ maxRedirects: 1.5 }, RangeError],
    [{ maxBytes: -1 }, RangeError],
    [{ timeoutMs: 0 }, RangeError],
    [{ timeoutMs: Number.NaN }, RangeError],
    [{ allow: ['http://x/'] }, TypeError],
    [{ headers: { Host: 'elsewhere' } }, TypeError],
  ])('%j is refused with a %o', (options, kind) => {
    expect(() => createGuard(options)).toThrow(kind);
  });

  it('takes a non-finite timeout as no limit', () => {
    expect(() => createGuard({ timeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
