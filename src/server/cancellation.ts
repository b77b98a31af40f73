/**
 * A request's cancellation state. The AbortSignal is made only when someone asks for it, so the
 * many requests that never look at it cost no AbortController and no listeners.
 */
export class Cancellation {
  aborted = false;
  private controller: AbortController | undefined;

  constructor(private readonly source?: AbortSignal | (() => AbortSignal)) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.aborted) controller.abort();
      const outer = typeof this.source === 'function' ? this.source() : this.source;
      if (outer?.aborted) this.abort();
      else outer?.addEventListener('abort', () => this.abort(), { once: true });
    }
    return this.controller.signal;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
  }
}
