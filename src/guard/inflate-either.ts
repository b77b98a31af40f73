import { Transform, type TransformCallback } from 'node:stream';
import { createInflate, createInflateRaw } from 'node:zlib';

/** Whether two bytes open a zlib stream (RFC 1950): method 8, a window ≤ 32 KiB, FCHECK right. */
function zlibHeader(head: Buffer): boolean {
  const cmf = head[0] ?? 0;
  const flg = head[1] ?? 0;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/**
 * `Content-Encoding: deflate` as browsers read it: zlib-wrapped as the RFC says, or raw DEFLATE
 * as some servers send it. The first two bytes decide: what zlib would refuse with "incorrect
 * header check" is inflated raw instead. Output flows as it is inflated (the reader counts it
 * against its cap and stops it), never buffered whole here.
 */
export class InflateEither extends Transform {
  private inner: Transform | undefined;
  private head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner === undefined) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) {
        done();
        return;
      }
      this.start();
      chunk = this.head;
      this.head = Buffer.alloc(0);
    }
    this.forward(chunk, done);
  }

  override _flush(done: TransformCallback): void {
    const inner = this.start();
    const finish = (): void => {
      inner.off('error', fail);
      done();
    };
    const fail = (error: Error): void => {
      inner.off('end', finish);
      done(error);
    };
    inner.once('end', finish).once('error', fail);
    if (this.head.length > 0) inner.write(this.head);
    inner.end();
    inner.resume();
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.inner?.destroy();
    done(error);
  }

  private forward(chunk: Buffer, done: TransformCallback): void {
    this.start().write(chunk, () => done());
  }

  private start(): Transform {
    if (this.inner !== undefined) return this.inner;
    const wrapped = zlibHeader(this.head);
    const inner = wrapped ? createInflate() : createInflateRaw();
    inner.on('data', (out: Buffer) => {
      if (!this.push(out)) inner.pause();
    });
    inner.on('error', (error) => {
      const what = wrapped
        ? 'the zlib-wrapped deflate body is corrupt'
        : 'the deflate body is neither zlib-wrapped nor raw DEFLATE';
      this.destroy(new Error(`${what} (${error.message})`, { cause: error }));
    });
    this.inner = inner;
    return inner;
  }
}
