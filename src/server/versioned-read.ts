/** What a read handler returns to say which version of its content it served. */

/**
 * A read's answer and the version it served (made by {@link versionedRead}). The server encodes
 * the whole answer once per version, URI and era (`ServerOptions.maxEncodedReadBytes`).
 */
export class VersionedRead<A = unknown> {
  /** @internal Use {@link versionedRead}. */
  constructor(
    private readonly make: A | (() => A),
    readonly version: object,
  ) {}

  /** What the handler would return otherwise (a `ReadReturn`); a builder runs on each use. */
  get answer(): A {
    const make = this.make;
    const value = typeof make === 'function' ? (make as () => A)() : make;
    if (typeof (value as { then?: unknown } | null)?.then === 'function')
      throw new TypeError(
        'versionedRead: the answer builder returned a promise; it must return the answer itself (await in the handler instead)',
      );
    return value;
  }
}

/**
 * Says that `answer` is the content of `version`: any object that is replaced whenever the
 * content changes (a cache entry, say), so that a new version is a new object and nothing is
 * ever served stale. The server then encodes the whole answer once per version, URI and era
 * and writes it again with only the request's id spliced in; the handler still runs for every
 * request. `answer` may be a function that builds it: the server calls it only when it has no
 * encoded answer of this version to write, so a repeated read builds nothing. It is called
 * later than the handler returns, and its answer is kept as the content of `version`: it must
 * build from `version` alone (never from a "current" entry that may have moved on meanwhile),
 * synchronously. The server reads `answer` at most once per request.
 *
 * @example
 * server.resource('mem://readme', { name: 'readme', mimeType: 'text/markdown' }, (uri) => {
 *   const entry = cache.current(); // replaced whenever the text changes
 *   // Built from `entry` alone, the version it names.
 *   return versionedRead(() => ({ contents: [{ uri, mimeType: 'text/markdown', text: entry.text }] }), entry);
 * });
 */
export function versionedRead<A>(answer: A | (() => A), version: object): VersionedRead<A> {
  return new VersionedRead(answer, version);
}
