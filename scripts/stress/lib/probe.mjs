// The well-behaved client: tools/list and resources/read on its own connection, every answer checked.
import { callModern, clientAgent } from './http.mjs';
import { fileUri, textOf, toolNames } from './mcp.mjs';
import { judge } from './tally.mjs';

const TOOLS = ['search', 'read'];

export class Probe {
  slowestMs = 0;
  requests = 0;
  /** Timed requests slower than 1 s, by method. */
  overOneSecond = 0;
  slowByMethod = {};
  #agent = clientAgent(1);
  #nextId = 1;
  #running;
  #stop = false;

  /** `file` is a path in the served folder whose text is `text`. */
  constructor(url, { file, text, tally, timeoutMs = 5000, maxRequests = 50_000, maxMs = 90_000 }) {
    Object.assign(this, { url, file, text, tally, timeoutMs, maxRequests, maxMs });
  }

  /** A few untimed, unchecked-for-latency requests so the server has listed and cached. */
  async warm(n = 10) {
    for (let i = 0; i < n; i++) await this.#one(false);
  }

  /** Loops until stop(), maxRequests or maxMs; the slowest request is what the case reports. */
  start() {
    const until = Date.now() + this.maxMs;
    this.#running = (async () => {
      while (!this.#stop && this.requests < this.maxRequests && Date.now() < until)
        await this.#one(true);
    })();
  }

  /** Ends the loop (idempotent); resolves with what it measured. */
  async stop() {
    this.#stop = true;
    await this.#running;
    this.#agent.destroy();
    const { requests, slowestMs, overOneSecond, slowByMethod } = this;
    return { requests, slowestMs, overOneSecond, slowByMethod };
  }

  async #one(timed) {
    const id = this.#nextId++;
    const list = id % 2 === 0;
    const params = list ? {} : { uri: fileUri(this.file) };
    const method = list ? 'tools/list' : 'resources/read';
    const t0 = performance.now();
    this.tally.requests++;
    if (timed) this.requests++;
    try {
      const res = await callModern(this.url, id, method, params, {
        agent: this.#agent,
        timeoutMs: this.timeoutMs,
      });
      judge(this.tally, res, id, (answer) => {
        if (list) {
          const names = toolNames(answer);
          return TOOLS.every((t) => names?.includes(t)) ? '' : `tools/list gave ${names}`;
        }
        const text = textOf(answer);
        return text === this.text ? '' : `read ${this.file}: ${String(text).slice(0, 40)}…`;
      });
    } catch (error) {
      this.tally.missing(`probe ${method}: ${error.message}`);
    } finally {
      const ms = performance.now() - t0;
      if (timed) this.slowestMs = Math.max(this.slowestMs, ms);
      if (timed && ms > 1000) {
        this.overOneSecond++;
        this.slowByMethod[method] = (this.slowByMethod[method] ?? 0) + 1;
      }
    }
  }
}
