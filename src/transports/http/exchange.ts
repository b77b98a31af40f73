/** The little an HTTP handler needs from a runtime; the web and node adapters implement it. */
export interface HttpExchange {
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** A header value by lower-case name (several values joined with ", "). */
  header(name: string): string | undefined;
  /** Reads the body as UTF-8 text; resolves 'too-large' as soon as it passes `limit` bytes. */
  body(limit: number): Promise<string | 'too-large'>;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

export interface SseSink {
  write(chunk: string): void;
  end(): void;
}

export interface HttpResponder {
  /** `body` in parts is the concatenation of the parts (large blobs are sent uncopied). */
  send(status: number, headers: Record<string, string>, body?: string | readonly string[]): void;
  stream(status: number, headers: Record<string, string>): SseSink;
}
