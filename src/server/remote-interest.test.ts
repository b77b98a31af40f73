import { describe, expect, it } from 'vitest';
import { INTEREST_EXPIRY_INTERVALS, RemoteInterest } from './remote-interest.js';

function table(maxEntries = 100) {
  let now = 1_000;
  const log: string[] = [];
  const warnings: string[] = [];
  const remote = new RemoteInterest({
    maxEntries,
    onChange: (uri, listened) => log.push(`${listened ? '+' : '-'}${uri}`),
    now: () => now,
    warn: (m) => warnings.push(m),
  });
  return { remote, log, warnings, advance: (ms: number) => (now += ms) };
}

const attach = (from: string, uris: string[], everyMs = 100) =>
  ({ type: 'attach', from, uris, everyMs }) as const;

describe('RemoteInterest', () => {
  it('counts a URI once however many instances name it; the last to leave detaches it', () => {
    const { remote, log } = table();
    remote.apply(attach('b', ['m://x', 'm://y']));
    remote.apply(attach('c', ['m://x']));
    remote.apply({ type: 'refresh', from: 'b', uris: ['m://x'], everyMs: 100 });
    expect(log).toEqual(['+m://x', '+m://y']);
    expect(remote.size).toBe(3);
    remote.apply({ type: 'detach', from: 'b', uris: ['m://x', 'm://y', 'm://never'] });
    expect(log).toEqual(['+m://x', '+m://y', '-m://y']);
    expect(remote.has('m://x')).toBe(true);
    remote.apply({ type: 'detach', from: 'c', uris: ['m://x'] });
    expect(log).toEqual(['+m://x', '+m://y', '-m://y', '-m://x']);
    expect([remote.size, remote.has('m://x')]).toEqual([0, false]);
  });

  it('a query changes nothing', () => {
    const { remote, log } = table();
    remote.apply({ type: 'query', from: 'b' });
    expect([log, remote.size]).toEqual([[], 0]);
  });

  it(`expires a URI ${INTEREST_EXPIRY_INTERVALS} of its instance's intervals after the last word, not before`, () => {
    const { remote, log, advance } = table();
    remote.apply(attach('b', ['m://x'], 100));
    remote.apply(attach('c', ['m://y'], 1000));
    advance(299);
    remote.sweep();
    expect(log).toEqual(['+m://x', '+m://y']);
    advance(1); // exactly 3 * 100 ms after b's attach
    remote.sweep();
    expect(log).toEqual(['+m://x', '+m://y', '-m://x']);
    expect(remote.has('m://y')).toBe(true); // c's interval is its own
  });

  it('a refresh renews the deadline', () => {
    const { remote, log, advance } = table();
    remote.apply(attach('b', ['m://x'], 100));
    for (let i = 0; i < 10; i++) {
      advance(250);
      remote.apply({ type: 'refresh', from: 'b', uris: ['m://x'], everyMs: 100 });
      remote.sweep();
    }
    expect(log).toEqual(['+m://x']);
    advance(300);
    remote.sweep();
    expect(log).toEqual(['+m://x', '-m://x']);
  });

  it('keeps at most maxEntries pairs: one at the bound is kept, the next ignored, warned once', () => {
    const { remote, log, warnings } = table(3);
    remote.apply(attach('b', ['m://1', 'm://2']));
    remote.apply(attach('c', ['m://1']));
    expect(remote.size).toBe(3);
    remote.apply(attach('c', ['m://3', 'm://4']));
    remote.apply(attach('d', ['m://5']));
    expect(remote.size).toBe(3);
    expect(log).toEqual(['+m://1', '+m://2']);
    expect(warnings).toEqual([expect.stringMatching(/maxRemoteInterest \(3\)/)]);
    // A known pair is still refreshed at the bound; a freed slot is used again.
    remote.apply({ type: 'refresh', from: 'b', uris: ['m://2'], everyMs: 100 });
    remote.apply({ type: 'detach', from: 'b', uris: ['m://2'] });
    remote.apply(attach('d', ['m://5']));
    expect(log).toEqual(['+m://1', '+m://2', '-m://2', '+m://5']);
    expect(warnings).toHaveLength(1);
  });

  it('clear forgets everything and says so for each URI', () => {
    const { remote, log } = table();
    remote.apply(attach('b', ['m://x', 'm://y']));
    remote.apply(attach('c', ['m://x']));
    remote.clear();
    expect(log.sort()).toEqual(['+m://x', '+m://y', '-m://x', '-m://y']);
    expect(remote.size).toBe(0);
  });

  it('a URI is out of the table before onChange hears it left', () => {
    const seen: boolean[] = [];
    const remote: RemoteInterest = new RemoteInterest({
      maxEntries: 10,
      onChange: (uri) => seen.push(remote.has(uri)),
    });
    remote.apply(attach('b', ['m://x']));
    remote.apply({ type: 'detach', from: 'b', uris: ['m://x'] });
    expect(seen).toEqual([true, false]);
  });

  it('bounds the characters kept too: 256 per allowed entry on average', () => {
    const { remote, warnings } = table(4);
    const long = (c: string) => `m://${c.repeat(500)}`;
    remote.apply(attach('x', [long('a'), long('b')]));
    expect(remote.size).toBe(2); // 1,008 characters: within 4 * 256
    remote.apply(attach('x', [long('c')]));
    expect(remote.size).toBe(2);
    expect(warnings).toHaveLength(1);
  });

  it("believes a peer's interval only up to maxEveryMs: a dead peer claiming a day stops counting", () => {
    let now = 0;
    const log: string[] = [];
    const remote = new RemoteInterest({
      maxEntries: 10,
      maxEveryMs: 1_000,
      onChange: (uri, listened) => log.push(`${listened ? '+' : '-'}${uri}`),
      now: () => now,
    });
    remote.apply(attach('x', ['m://a'], 86_400_000));
    now = 3 * 1_000 - 1;
    remote.sweep();
    expect(log).toEqual(['+m://a']);
    now = 3 * 1_000;
    remote.sweep();
    expect(log).toEqual(['+m://a', '-m://a']);
  });
});
