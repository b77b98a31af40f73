/**
 * Harness of test/e2e/watch*.test.ts: a temporary folder served by real `mcpkit serve` processes
 * (the built CLI, over stdio or HTTP), the mcpkit client listening to them, and every frame a
 * listen stream yields recorded, so that a test waits for what it expects with a deadline.
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpClient } from '../../src/client/index.js';
import type { ListenNotification } from '../../src/client/listen.js';
import type { SubscriptionFilter } from '../../src/protocol/index.js';
import { connect } from '../../src/transports/connect.js';
import { CLI, HttpServe, ROOT } from './serve-harness.js';

export type Kind = 'stdio' | 'http';

/** Polls `what` every 20 ms until it holds; throws after `ms` with `why`. */
export async function until(
  why: string,
  what: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`${why}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A listen stream whose frames are collected as they come. */
export class Recorded {
  readonly frames: ListenNotification[] = [];
  ended: unknown = undefined;
  private readonly done: Promise<void>;

  constructor(private readonly stream: AsyncIterable<ListenNotification> & { close(): unknown }) {
    this.done = (async () => {
      try {
        for await (const frame of stream) this.frames.push(frame);
      } catch (error) {
        this.ended = error;
      }
    })();
  }

  /** URIs of the `resources/updated` frames so far, in order. */
  updates(uri?: string): string[] {
    return this.frames
      .filter((f) => f.method === 'notifications/resources/updated')
      .map((f) => String(f.params['uri']))
      .filter((u) => uri === undefined || u === uri);
  }

  listChanges(): number {
    return this.frames.filter((f) => f.method === 'notifications/resources/list_changed').length;
  }

  async close(): Promise<void> {
    await this.stream.close();
    await this.done;
  }
}

/** One `mcpkit serve DIR` process and a client connected to it. */
export interface Served {
  kind: Kind;
  client: McpClient;
  listen(filter: SubscriptionFilter): Promise<Recorded>;
  /** Text of a file as `resources/read` serves it now. */
  read(name: string): Promise<string | undefined>;
  /** The names `resources/list` lists now. */
  names(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function serve(
  kind: Kind,
  dir: string,
  extra: string[] = [],
  era: 'auto' | 'legacy' = 'auto',
): Promise<Served> {
  let http: HttpServe | undefined;
  let client: McpClient;
  const options = { era, requestTimeoutMs: 20_000 };
  if (kind === 'stdio') {
    client = await connect({
      command: process.execPath,
      args: [CLI, 'serve', dir, '--quiet', ...extra, '--stdio'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), NODE_OPTIONS: '' },
      client: options,
    });
  } else {
    http = await HttpServe.start([dir, '--quiet', ...extra]);
    client = await connect({ url: http.url, client: options });
  }
  const recorded: Recorded[] = [];
  return {
    kind,
    client,
    async listen(filter) {
      const r = new Recorded(await client.listen(filter));
      recorded.push(r);
      return r;
    },
    async read(name) {
      const { contents } = await client.readResource(`file:///${name}`);
      const first = contents[0] as { text?: string } | undefined;
      return first?.text;
    },
    async names() {
      return (await client.listResources()).map((r) => r.name);
    },
    async stop() {
      await Promise.all(recorded.map((r) => r.close().catch(() => undefined)));
      await client.close();
      await http?.stop();
    },
  };
}

/**
 * A temporary folder holding `files`, last modified an hour ago (so that no read waits for a
 * file to settle); `remove()` deletes it.
 */
export async function folder(
  files: Record<string, string>,
): Promise<{ dir: string; path(name: string): string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-watch-e2e-'));
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    await utimes(join(dir, name), hourAgo, hourAgo);
  }
  return {
    dir,
    path: (name) => join(dir, name),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
