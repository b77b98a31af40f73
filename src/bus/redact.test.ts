import { describe, expect, it } from 'vitest';
import { redactRedisUrl, scrubSecrets, urlSecrets } from './redact.js';

describe('redactRedisUrl', () => {
  it.each([
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis://localhost', 'redis://localhost'],
    ['redis://:hunter22@cache:6379/0', 'redis://***@cache:6379/0'],
    ['redis://app:hunter22@cache:6379', 'redis://***@cache:6379'],
    ['rediss://app:s3cr%40t@redis.internal:6380/2', 'rediss://***@redis.internal:6380/2'],
    ['redis://onlyuser@cache', 'redis://***@cache'],
    // An "@" in an unencoded password: the host is what follows the last one.
    ['redis://u:p@ss@cache:1', 'redis://***@cache:1'],
    ['redis://cache:6379/0?password=hunter22&db=1', 'redis://cache:6379/0?password=***&db=1'],
    ['redis://cache?family=6&Token=abc&x', 'redis://cache?family=6&Token=***&x'],
    ['redis://u:p@[::1]:6379#frag', 'redis://***@[::1]:6379#frag'],
    ['cache:6379', 'cache:6379'],
    ['', ''],
    ['not a url at all', 'not a url at all'],
  ])('%s -> %s', (url, printed) => {
    expect(redactRedisUrl(url)).toBe(printed);
  });

  it('never shows the password, whatever the spelling', () => {
    for (const url of [
      'redis://:pa55word@h',
      'redis://user:pa55word@h/1?db=2',
      'REDISS://user:pa55word@h',
      'redis://h?password=pa55word',
      'redis://h?auth_token=pa55word',
    ])
      expect(redactRedisUrl(url)).not.toContain('pa55word');
  });
});

describe('scrubSecrets', () => {
  it('masks the URL and its credentials, raw and percent-decoded, anywhere in a text', () => {
    const url = 'redis://alice:s3cr%40t99@cache:6379';
    expect(urlSecrets(url)).toEqual(expect.arrayContaining(['s3cr%40t99', 's3cr@t99', 'alice']));
    const text = `failed ${url}: AUTH alice s3cr@t99 refused (s3cr%40t99)`;
    const out = scrubSecrets(text, url);
    expect(out).toBe('failed redis://***@cache:6379: AUTH *** *** refused (***)');
  });

  it('leaves text alone when the URL has no credentials', () => {
    expect(scrubSecrets('connect ECONNREFUSED 127.0.0.1:6379', 'redis://127.0.0.1:6379')).toBe(
      'connect ECONNREFUSED 127.0.0.1:6379',
    );
  });
});
