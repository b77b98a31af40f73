// A JSON-RPC client over a stdio server's pipes: writes with backpressure, reads when told to.
import { once } from 'node:events';

export class StdioClient {
  /** Answers by id, in arrival order; `lines` that are not JSON are counted in `garbage`. */
  answers = new Map();
  /** Ids answered more than once, with the repeated answer. */
  duplicates = [];
  garbage = 0;
  #buffer = '';
  #waiters = new Map();

  constructor(child) {
    this.child = child;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => this.#feed(chunk));
  }

  /** Stops reading stdout: the pipe fills and the server must hold (or bound) what it writes. */
  pause() {
    this.child.stdout.pause();
  }

  resume() {
    this.child.stdout.resume();
  }

  /**
   * Writes one message (it is queued even when this resolves false), then waits at most
   * `drainMs` for stdin to drain; resolves whether it did.
   */
  async send(message, drainMs = 10_000) {
    const line = (typeof message === 'string' ? message : JSON.stringify(message)) + '\n';
    if (this.child.stdin.write(line)) return true;
    const drained = once(this.child.stdin, 'drain').then(() => true);
    const timeout = new Promise((r) => setTimeout(r, drainMs, false).unref());
    return Promise.race([drained, timeout]);
  }

  /** Resolves with the answer to `id`, or undefined after `ms`. */
  answer(id, ms = 10_000) {
    if (this.answers.has(id)) return Promise.resolve(this.answers.get(id));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(id);
        resolve(undefined);
      }, ms);
      this.#waiters.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  /** Sends and waits for the answer, with the time it took. */
  async call(message, ms = 10_000) {
    const t0 = performance.now();
    await this.send(message, ms);
    const answer = await this.answer(message.id, ms);
    return { answer, ms: performance.now() - t0 };
  }

  /** Closes stdin (EOF) and resolves with the exit code, or null if still running after `ms`. */
  async end(ms = 10_000) {
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = once(this.child, 'exit').then(([code]) => code);
    return Promise.race([exited, new Promise((r) => setTimeout(r, ms, null).unref())]);
  }

  #feed(chunk) {
    this.#buffer += chunk;
    let nl;
    while ((nl = this.#buffer.indexOf('\n')) >= 0) {
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        this.garbage++;
        continue;
      }
      if (!('id' in message)) continue; // notifications
      if (this.answers.has(message.id)) this.duplicates.push(message);
      else this.answers.set(message.id, message);
      this.#waiters.get(message.id)?.(message);
      this.#waiters.delete(message.id);
    }
  }
}
