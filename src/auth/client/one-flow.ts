/**
 * One sign-in or token refresh at a time: the requests that need one while it runs wait for it
 * and share how it ends, a new token or its failure, rather than each starting its own (a refresh
 * token is often single-use, and every failed sign-in would open another browser prompt).
 */
import { McpKitError } from '../../errors/index.js';

export class OneFlow {
  private running: Promise<void> | undefined;
  /** The signal of the request that started the flow running (its cancel ends that flow). */
  private startedBy: AbortSignal | undefined;

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs `work` as the flow, for the request of `signal`. */
  async run(work: () => Promise<void>, signal?: AbortSignal): Promise<void> {
    const run = work();
    this.running = run;
    this.startedBy = signal;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = this.startedBy = undefined;
    }
  }

  /** Once the flow running (if any) has ended, however it ended. */
  async settled(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /**
   * Waits for the flow running (at most until `signal` aborts: REQUEST_CANCELLED) and shares how
   * it ends: its failure is the caller's too, unless it failed because the request that started
   * it was cancelled (then the caller may start another).
   */
  async share(signal: AbortSignal | undefined): Promise<void> {
    const [run, started] = [this.running, this.startedBy];
    if (run === undefined) return;
    try {
      await untilAborted(run, signal);
    } catch (error) {
      if (signal?.aborted || !started?.aborted) throw error;
    }
  }
}

/** `work`, or REQUEST_CANCELLED as soon as `signal` aborts (the work goes on for the others). */
function untilAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(cancelled(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function cancelled(signal: AbortSignal): McpKitError {
  return new McpKitError('REQUEST_CANCELLED', 'the request waiting for a sign-in was cancelled', {
    cause: signal.reason,
  });
}
