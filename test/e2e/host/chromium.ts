/**
 * Headless Chromium for the tests, driven through the Chrome DevTools Protocol over a pipe
 * (`--remote-debugging-pipe`: fd 3 in, fd 4 out, messages ended by NUL), so no WebSocket client
 * is needed. Opens one page, records what it logs and requests, and takes screenshots.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** Debian's `chromium` first; `CHROMIUM` names another binary. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser to run, or undefined when none is installed. */
export function findChromium(): string | undefined {
  const named = process.env['CHROMIUM'];
  if (named) return existsSync(named) ? named : undefined;
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  const which = spawnSync('sh', ['-c', 'command -v chromium chromium-browser'], {
    encoding: 'utf8',
  });
  return which.stdout.split('\n')[0]?.trim() || undefined;
}

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
};

export interface PageProblems {
  /** Console errors, uncaught exceptions and browser log errors (CSP violations among them). */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
}

export class Chromium {
  private buffer = '';
  private next = 0;
  private readonly pending = new Map<number, (m: Message) => void>();
  private stderr = '';
  private readonly waiters: Array<{ method: string; resolve: () => void }> = [];
  readonly problems: PageProblems = { errors: [], requests: [] };
  private session = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    // A browser that fails to start or dies answers every pending command with why.
    const fail = (why: string): void => {
      for (const [id, answer] of this.pending) {
        this.pending.delete(id);
        answer({ error: { message: `${why}; stderr: ${this.stderr.slice(-2000)}` } });
      }
    };
    child.once('error', (error) => fail(`chromium did not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`chromium exited (${code ?? signal})`));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr = (this.stderr + d).slice(-20_000);
    });
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Message;
        this.buffer = this.buffer.slice(end + 1);
        this.receive(message);
      }
    });
  }

  static async launch(binary: string): Promise<Chromium> {
    const profile = await mkdtemp(join(tmpdir(), 'mcpkit-chromium-'));
    const child = spawn(
      binary,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--no-default-browser-check',
        `--user-data-dir=${profile}`,
        '--remote-debugging-pipe',
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const browser = new Chromium(child, profile);
    const created = await browser.send('Target.createTarget', { url: 'about:blank' });
    const attached = await browser.send('Target.attachToTarget', {
      targetId: created['targetId'],
      flatten: true,
    });
    browser.session = attached['sessionId'] as string;
    for (const domain of ['Runtime', 'Log', 'Page', 'Network'])
      await browser.send(`${domain}.enable`);
    return browser;
  }

  private receive(message: Message): void {
    if (message.id !== undefined) {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
      return;
    }
    const p = message.params ?? {};
    switch (message.method) {
      case 'Runtime.consoleAPICalled':
        if (p['type'] === 'error' || p['type'] === 'assert')
          this.problems.errors.push(`console.${String(p['type'])}: ${JSON.stringify(p['args'])}`);
        break;
      case 'Runtime.exceptionThrown':
        this.problems.errors.push(`exception: ${JSON.stringify(p['exceptionDetails'])}`);
        break;
      case 'Log.entryAdded': {
        const entry = p['entry'] as { level: string; text: string; source: string };
        if (entry.level === 'error') this.problems.errors.push(`${entry.source}: ${entry.text}`);
        break;
      }
      case 'Network.requestWillBeSent':
        this.problems.requests.push((p['request'] as { url: string }).url);
        break;
    }
    for (const w of this.waiters.filter((w) => w.method === message.method)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  /** One CDP command (on the page once attached); rejects with the browser's error. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = ++this.next;
    const message = { id, method, params, ...(this.session ? { sessionId: this.session } : {}) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) =>
        m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result ?? {}),
      );
      (this.child.stdio[3] as Writable).write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Opens `url` and waits for its load event. */
  async open(url: string, width = 1200, height = 900): Promise<void> {
    await this.send('Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const loaded = new Promise<void>((resolve) =>
      this.waiters.push({ method: 'Page.loadEventFired', resolve }),
    );
    const nav = await this.send('Page.navigate', { url });
    if (typeof nav['errorText'] === 'string') throw new Error(`${url}: ${nav['errorText']}`);
    await loaded;
  }

  /** The value of `expression` in the page (JSON-serialisable). */
  async evaluate<T>(expression: string): Promise<T> {
    const got = await this.send('Runtime.evaluate', { expression, returnByValue: true });
    const result = got['result'] as { value: T };
    if (got['exceptionDetails'])
      throw new Error(`${expression}: ${JSON.stringify(got['exceptionDetails'])}`);
    return result.value;
  }

  /** A PNG of the whole page. */
  async screenshot(): Promise<Buffer> {
    const size = await this.evaluate<{ w: number; h: number }>(
      '({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight })',
    );
    const shot = await this.send('Page.captureScreenshot', {
      format: 'png',
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: size.w, height: Math.min(size.h, 16_000), scale: 1 },
    });
    return Buffer.from(shot['data'] as string, 'base64');
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    this.session = '';
    void this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(this.profile, { recursive: true, force: true });
  }
}
