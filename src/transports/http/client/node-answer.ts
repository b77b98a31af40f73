/**
 * An answer of the Node request path (node-requester.ts): the body of a `node:http` response
 * read chunk by chunk (paused mode: what is not read stays in the socket, so a slow reader
 * holds back the server) or whole in one go, decompressed when the server compressed it.
 */
import type * as NodeHttp from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import type * as NodeZlib from 'node:zlib';
import type { HttpAnswer } from './client-requester.js';

interface Waiter {
  resolve(chunk: Uint8Array | undefined): void;
  reject(error: unknown): void;
}

export class NodeAnswer implements HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** The response, or the decompressor it is piped into. */
  private readonly body: Readable;
  /** The body ended, or was cancelled: reads give nothing more. */
  private ended = false;
  private failed = false;
  private failure: unknown;
  private waiter: Waiter | undefined;
  private listening = false;

  constructor(
    private readonly req: NodeHttp.ClientRequest,
    private readonly res: NodeHttp.IncomingMessage,
    zlib: () => typeof NodeZlib,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    this.body = decoded(res, zlib);
    const fail = (error: unknown): void => this.fail(error);
    res.on('error', fail);
    if (this.body !== res) this.body.on('error', fail);
    this.body.once('end', () => {
      this.ended = true;
      this.settle(undefined);
    });
    this.body.once('close', () => {
      if (!this.ended) this.fail(new Error('the connection closed before the body ended'));
    });
  }

  header(name: string): string | null {
    const value = this.res.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  read(): Promise<Uint8Array | undefined> {
    if (this.failed) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(undefined);
    const chunk = this.body.read() as Buffer | null;
    if (chunk !== null) return Promise.resolve(chunk);
    if (!this.listening) {
      this.listening = true;
      this.body.on('readable', this.onReadable);
    }
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  readText(cap: number): Promise<string | undefined> {
    if (this.failed) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve('');
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      this.waiter = { resolve: () => resolve(textOf(chunks, total)), reject };
      this.body.on('data', (chunk: Buffer) => {
        if (this.ended) return;
        total += chunk.length;
        if (total <= cap) return void chunks.push(chunk);
        this.waiter = undefined;
        void this.cancel();
        resolve(undefined);
      });
    });
  }

  async cancel(): Promise<void> {
    if (this.ended || this.failed) return;
    this.ended = true;
    this.settle(undefined);
    this.body.removeListener('readable', this.onReadable);
    if (!this.res.complete) {
      // Part of the body is still to come: only closing the connection stops it.
      this.req.destroy();
      return;
    }
    // All of it came: drained, the connection goes back to the pool.
    if (this.body !== this.res) {
      this.res.unpipe(this.body as Duplex);
      this.body.destroy();
    }
    this.res.resume();
  }

  /** The connection broke, or the request was aborted (`error` is then the abort reason). */
  fail(error: unknown): void {
    if (this.ended || this.failed) return;
    this.failed = true;
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }

  private settle(chunk: Uint8Array | undefined): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(chunk);
  }

  private readonly onReadable = (): void => {
    if (!this.waiter) return;
    const chunk = this.body.read() as Buffer | null;
    // Null at the end of the body: 'end' follows and settles the read.
    if (chunk !== null) this.settle(chunk);
  };
}

/** The body as UTF-8 text, as `TextDecoder` gives it (a leading BOM dropped). */
function textOf(chunks: Buffer[], total: number): string {
  const first = chunks[0];
  if (first === undefined) return '';
  const text = (chunks.length === 1 ? first : Buffer.concat(chunks, total)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** What fetch decodes: a gzip, deflate or br body; any other coding is read as it came. */
function decoded(res: NodeHttp.IncomingMessage, loadZlib: () => typeof NodeZlib): Readable {
  const coding = res.headers['content-encoding']?.trim().toLowerCase();
  if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate' && coding !== 'br') {
    return res;
  }
  const zlib = loadZlib();
  // Truncated input is tolerated as fetch does: what decoded so far is delivered.
  const tolerant = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  let decoder: Duplex;
  if (coding === 'gzip' || coding === 'x-gzip') decoder = zlib.createGunzip(tolerant);
  else if (coding === 'deflate') decoder = zlib.createInflate(tolerant);
  else {
    decoder = zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  }
  res.pipe(decoder);
  return decoder;
}
