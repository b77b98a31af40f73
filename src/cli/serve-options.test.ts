import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './args.js';
import { DEFAULT_MAX_DEPTH } from '../protocol/depth.js';
import { INDEXED_SEARCH_DEFAULTS } from '../providers/filesystem/folder-search-options.js';
import { DEFAULT_WATCH_DEBOUNCE_MS } from '../providers/filesystem/folder-freshness.js';
import { DEFAULT_READ_TIMEOUT_MS } from '../providers/filesystem/read-timeout.js';
import { BASE_READ_WORKERS, DEFAULT_READ_WORKERS } from '../providers/filesystem/read-pool.js';
import { DEFAULT_MAX_ENCODED_READ_BYTES } from '../server/encoded-reads.js';
import {
  DEFAULT_MAX_LISTEN_PENDING_URIS,
  DEFAULT_MAX_LISTEN_QUEUE_BYTES,
  DEFAULT_MAX_LISTEN_URIS,
  DEFAULT_MAX_LISTENS,
} from '../server/options.js';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_TOTAL_BYTES,
} from '../transports/http/server/options.js';
import { DEFAULT_HEADER_TIMEOUT_MS } from '../transports/node.js';
import {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_QUEUED_BYTES,
} from '../transports/stdio/server/serve-stdio.js';
import { VALUE_OPTIONS } from './serve-options.js';
import { USAGE } from './usage.js';
import { parseDuration } from './values.js';

describe('parseDuration', () => {
  it.each([
    ['10s', 10_000],
    ['10', 10_000],
    ['250ms', 250],
    ['250MS', 250],
    ['1.5m', 90_000],
    ['2h', 7_200_000],
    [' 3s ', 3000],
  ])('%j -> %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 's', '-1s', '10 days', '1e3s', '10sec', 'NaN'])('%j is invalid', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('serve limits on the command line', () => {
  it.each<[string[], Record<string, unknown>]>([
    [['--max-depth', '128'], { maxDepth: 128 }],
    [['--stdio', '--max-in-flight', '16'], { maxInFlight: 16 }],
    [['--stdio', '--max-queued-bytes', '8m'], { maxQueuedBytes: 8 * 1024 ** 2 }],
    [['--max-listen-queue-bytes', '1m'], { maxListenQueueBytes: 1024 ** 2 }],
    [
      ['--max-listens', '50', '--max-listen-uris=8', '--stdio', '--max-listen-pending-uris', '16'],
      { maxListens: 50, maxListenUris: 8, maxListenPendingUris: 16 },
    ],
    [
      ['--body-timeout', '5s', '--header-timeout=20s'],
      { bodyTimeoutMs: 5000, headerTimeoutMs: 20_000 },
    ],
    [['--max-body-total-bytes', '128m'], { maxBodyTotalBytes: 128 * 1024 ** 2 }],
    [['--max-encoded-read-bytes', '0'], { maxEncodedReadBytes: 0 }],
    [['--max-stalled-reads', '4'], { maxStalledReads: 4 }],
    [['--read-workers', '8'], { readWorkers: 8 }],
    [['--read-workers=0'], { readWorkers: 0 }],
    [['--stdio', '--read-workers', '1000'], { readWorkers: 1000 }],
    [['--stdio', '--max-encoded-read-bytes=8m'], { maxEncodedReadBytes: 8 * 1024 ** 2 }],
    [
      ['--max-sessions', '50000', '--session-idle', '10m'],
      { maxSessions: 50_000, sessionIdleMs: 600_000 },
    ],
    [
      ['--search-max-file-bytes', '16m', '--search-timeout', '2s'],
      { searchMaxFileBytes: 16 * 1024 ** 2, searchTimeoutMs: 2000 },
    ],
    [['--max-files', '2000000'], { maxFiles: 2_000_000 }],
    [['--watch-debounce', '250ms'], { watchDebounceMs: 250, watch: true }],
    [['--read-timeout', '2s'], { readTimeoutMs: 2000 }],
    [['--stdio', '--read-timeout=500ms'], { readTimeoutMs: 500 }],
  ])('%j', (argv, expected) => {
    const parsed = parseServeArgs(argv);
    expect(parsed.kind).toBe('ok');
    if (parsed.kind === 'ok') expect(parsed.args).toMatchObject(expected);
  });

  it.each<[string[], RegExp]>([
    [['--max-depth', '4'], /^--max-depth expects a whole number from 8 to 10000, got "4"$/],
    [['--max-in-flight', '8'], /^--max-in-flight applies to --stdio only$/],
    [['--stdio', '--max-sessions', '5'], /^--max-sessions applies to --http only$/],
    [['--stdio', '--body-timeout', '5s'], /^--body-timeout applies to --http only$/],
    [
      ['--body-timeout', 'soon'],
      /^--body-timeout expects a duration such as 10s, 500ms, 2m or 1h, got "soon"$/,
    ],
    [['--body-timeout', '10ms'], /^--body-timeout must be from 100ms to 86400s, got "10ms"$/],
    [['--session-idle', '2d'], /^--session-idle expects a duration/],
    [['--search-max-files', '10'], /--search-max-files/],
    [['--search-max-file-bytes', 'lots'], /^--search-max-file-bytes expects/],
    [['--max-listen-queue-bytes', '10'], /^--max-listen-queue-bytes must be at least 1k/],
    [['--max-listens', '0'], /^--max-listens expects a whole number from 1 to 1000000, got "0"$/],
    [['--max-listen-uris', 'many'], /^--max-listen-uris expects a whole number from 1/],
    [['--max-listen-pending-uris'], /^--max-listen-pending-uris expects a value$/],
    [['--watch-debounce', '5ms'], /^--watch-debounce must be from 10ms to 60s, got "5ms"$/],
    [['--no-watch', '--watch-debounce', '1s'], /^--watch-debounce has no effect with --no-watch$/],
    [['--read-timeout', 'never'], /^--read-timeout expects a duration such as 10s/],
    [['--read-workers', '-1'], /^--read-workers expects a whole number from 0 to 1000, got "-1"$/],
    [['--read-workers', 'many'], /^--read-workers expects a whole number from 0 to 1000/],
    [['--read-workers', '1.5'], /^--read-workers expects a whole number from 0 to 1000/],
    [['--read-workers', '1001'], /^--read-workers expects a whole number from 0 to 1000/],
    [['--read-workers'], /^--read-workers expects a value$/],
    // A bare number is seconds, as for every duration: 30000 (meant as ms) is over the hour.
    [['--read-timeout', '30000'], /^--read-timeout must be from 10ms to 3600s, got "30000"$/],
  ])('%j -> error', (argv, message) => {
    const parsed = parseServeArgs(argv);
    expect(parsed).toMatchObject({ kind: 'error' });
    if (parsed.kind === 'error') expect(parsed.message).toMatch(message);
  });
});

describe('--help names the library defaults', () => {
  /** The help text of one option: its line and the indented lines after it. */
  function helpOf(flag: string): string {
    const at = USAGE.indexOf(`  ${flag} `);
    expect(at, `--help lists ${flag}`).toBeGreaterThanOrEqual(0);
    const rest = USAGE.slice(at + 2);
    const next = rest.slice(1).search(/\n {2}-|\n\n/);
    return next < 0 ? rest : rest.slice(0, next + 1);
  }
  const MIB = 1024 * 1024;

  it.each<[string, string, number, number]>([
    ['--max-depth', '64', DEFAULT_MAX_DEPTH, 64],
    ['--max-listen-queue-bytes', '4m', DEFAULT_MAX_LISTEN_QUEUE_BYTES, 4 * MIB],
    ['--max-listens', '10000', DEFAULT_MAX_LISTENS, 10_000],
    ['--max-listen-uris', '1024', DEFAULT_MAX_LISTEN_URIS, 1024],
    ['--max-listen-pending-uris', '1024', DEFAULT_MAX_LISTEN_PENDING_URIS, 1024],
    ['--search-max-file-bytes', '8m', INDEXED_SEARCH_DEFAULTS.maxFileBytes, 8 * MIB],
    ['--search-timeout', '5s', INDEXED_SEARCH_DEFAULTS.timeoutMs, 5000],
    ['--max-in-flight', '64', DEFAULT_MAX_IN_FLIGHT, 64],
    ['--max-queued-bytes', '16m', DEFAULT_MAX_QUEUED_BYTES, 16 * MIB],
    ['--body-timeout', '10s', DEFAULT_BODY_TIMEOUT_MS, 10_000],
    ['--header-timeout', '15s', DEFAULT_HEADER_TIMEOUT_MS, 15_000],
    ['--max-body-total-bytes', '64m', DEFAULT_MAX_BODY_TOTAL_BYTES, 64 * MIB],
    ['--watch-debounce', '100ms', DEFAULT_WATCH_DEBOUNCE_MS, 100],
    ['--read-timeout', '30s', DEFAULT_READ_TIMEOUT_MS, 30_000],
    ['--max-encoded-read-bytes', '32m', DEFAULT_MAX_ENCODED_READ_BYTES, 32 * MIB],
  ])('%s: (default %s)', (flag, shown, constant, value) => {
    expect(constant).toBe(value);
    expect(helpOf(flag).replace(/\s+/g, ' ')).toContain(`(default ${shown})`);
  });

  it('--read-workers: 4 start, at most DEFAULT_READ_WORKERS by default, 0 for none', () => {
    expect(BASE_READ_WORKERS).toBe(4);
    expect(DEFAULT_READ_WORKERS).toBe(20);
    const help = helpOf('--read-workers').replace(/\s+/g, ' ');
    expect(help).toContain('4 start,');
    expect(help).toContain('(default 20;');
    expect(help).toContain("0 reads on libuv's thread pool instead");
  });

  it('lists every value option', () => {
    for (const flag of Object.keys(VALUE_OPTIONS)) helpOf(flag);
  });
});
