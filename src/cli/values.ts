/** The value syntaxes of the command line: sizes, durations, addresses. */

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
};

/**
 * Parses a byte size: a number with an optional unit, case-insensitive. `k`, `kib`, `m`, `mib`,
 * `g`, `gib` are powers of 1024; `kb`, `mb`, `gb` powers of 1000. Undefined when invalid.
 *
 * @example
 * parseSize('512k'); // 524288
 * parseSize('1.5m'); // 1572864
 */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = UNITS[(m[2] ?? '').toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Parses `port`, `host:port` or `[v6]:port`; undefined when invalid. */
export function parseHostPort(
  text: string,
  defaultHost = '127.0.0.1',
): { host: string; port: number } | undefined {
  // A host is an IPv6 address in brackets, or a name or IPv4 address: letters, digits, `.-_`.
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):)?(\d{1,5})$/.exec(text);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  const host = m[1] === undefined ? defaultHost : m[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/** Whether an argument after `--http` is meant as its address (not a folder named like a word). */
export function looksLikeAddress(arg: string): boolean {
  return /^\d+$/.test(arg) || /^(\[[^\]]*\]|[^\s:/\\]+):\d*$/.test(arg);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration into milliseconds: a number with a unit `ms`, `s`, `m` or `h`
 * (case-insensitive); a bare number is seconds. Undefined when invalid.
 *
 * @example
 * parseDuration('10s'); // 10000
 * parseDuration('1.5m'); // 90000
 * parseDuration('250ms'); // 250
 */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = DURATION_UNITS[(m[2] || 's').toLowerCase()];
  if (unit === undefined) return undefined;
  const ms = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(ms) ? ms : undefined;
}
