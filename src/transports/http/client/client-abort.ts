/**
 * What the HTTP client transport aborts its own requests with: an `AbortController` without
 * the `EventTarget` and `DOMException` (it is made for every request, so it is kept cheap). A
 * real `AbortSignal` is only made where web `fetch` needs one (client-requester.ts).
 */
export class Abort {
  aborted = false;
  /** Why it was aborted (an `AbortError`, or a `TimeoutError` for `Abort.timeout`). */
  reason: unknown;
  private listeners: Array<() => void> | undefined;

  /** Aborts once; the listeners run in order. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? abortError('AbortError', 'This operation was aborted');
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Calls `listener` once on abort (not if already aborted); returns what unsubscribes it. */
  listen(listener: () => void): () => void {
    if (this.aborted) return noop;
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index !== -1) this.listeners?.splice(index, 1);
    };
  }

  /** Aborted with a `TimeoutError` after `ms` (the timer does not keep Node alive). */
  static timeout(ms: number): Abort {
    const abort = new Abort();
    const timer: unknown = setTimeout(
      () => abort.abort(abortError('TimeoutError', 'The operation was aborted due to timeout')),
      ms,
    );
    (timer as { unref?: () => void }).unref?.();
    return abort;
  }
}

function noop(): void {}

/** What an aborted fetch rejects with: a DOMException where there is one. */
function abortError(name: string, message: string): Error {
  if (typeof DOMException === 'function') return new DOMException(message, name);
  return Object.assign(new Error(message), { name });
}
