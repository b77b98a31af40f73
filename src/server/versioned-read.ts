/** What a read handler returns to say which version of its content it served. */

/**
 * A read's answer and the version it served (made by {@link versionedRead}). The server encodes
 * the whole answer once per version, URI and era (`ServerOptions.maxEncodedReadBytes`).
 */
export class VersionedRead<A = unknown> {
  /** @internal Use {@link versionedRead}. */
  constructor(
    /** What the handler would return otherwise (a `ReadReturn`). */
    readonly answer: A,
    readonly version: object,
  ) {}
}

/**
 * Says that `answer` is the content of `version`: any object that is replaced whenever the
 * content changes (a cache entry, say), so that a new version is a new object and nothing is
 * ever served stale. The server then encodes the whole answer once per version, URI and era
 * and writes it again with only the request's id spliced in; the handler still runs for every
 * request.
 *
 * @example
 * server.resource('mem://readme', { name: 'readme', mimeType: 'text/markdown' }, (uri) => {
 *   const entry = cache.current(); // replaced whenever the text changes
 *   return versionedRead({ contents: [{ uri, mimeType: 'text/markdown', text: entry.text }] }, entry);
 * });
 */
export function versionedRead<A>(answer: A, version: object): VersionedRead<A> {
  return new VersionedRead(answer, version);
}
