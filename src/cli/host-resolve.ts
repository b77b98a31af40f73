/**
 * The resolver as the host commands run it: the policy from the command line (`--resolve`,
 * `--budget`, `--fetch-urls`, `--allow-address`, `--timeout`), consent asked on the terminal, and
 * the JSON form of resolved blocks (`size`/`bytes` in decoded bytes, `sha256` of what was obtained).
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { McpClient } from '../client/index.js';
import { createGuard } from '../guard/index.js';
import { Resolver } from '../host/index.js';
import type { LinkInfo, LinkOutcome, ResolvePolicy, ResolvedBlock } from '../host/index.js';
import type { ContentBlock } from '../protocol/index.js';
import type { HostArgs } from './host-args.js';
import { shownText } from './terminal-text.js';

/** Asks y/n per link on the terminal; with no terminal (stdin or stderr not a TTY) every link is refused. */
function terminalConsent(): { consent: NonNullable<ResolvePolicy['consent']>; close(): void } {
  const tty = process.stdin.isTTY === true && process.stderr.isTTY === true;
  if (!tty) {
    return {
      consent: () => ({ allow: false, reason: 'no terminal to ask on (--resolve ask needs one)' }),
      close: () => undefined,
    };
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-D or Ctrl-C at the prompt refuses this link and every later one: never a hang.
  let closed = false;
  let pending: ((answer: string) => void) | undefined;
  const stop = (): void => {
    closed = true;
    pending?.('');
    pending = undefined;
  };
  rl.on('close', stop);
  rl.on('SIGINT', () => rl.close());
  const ask = (q: string): Promise<string> =>
    new Promise((resolve) => {
      if (closed) return resolve('');
      pending = resolve;
      rl.question(q, (answer) => {
        pending = undefined;
        resolve(answer);
      });
    });
  return {
    consent: async (link: LinkInfo) => {
      if (closed) return { allow: false, reason: 'the terminal was closed (Ctrl-D or Ctrl-C)' };
      const facts = [link.mimeType, link.size === undefined ? undefined : `${link.size} bytes`]
        .filter(Boolean)
        .join(', ');
      const q =
        `Read ${shownText(link.uri)} (${shownText(JSON.stringify(link.name))}${facts ? `, ${shownText(facts)}` : ''}) ` +
        `from ${shownText(link.server.name)}? [y/N] `;
      const answer = (await ask(q)).trim().toLowerCase();
      if (answer === 'y' || answer === 'yes') return true;
      return {
        allow: false,
        reason: closed ? 'the terminal was closed (Ctrl-D or Ctrl-C)' : 'refused at the terminal',
      };
    },
    close: () => rl.close(),
  };
}

/** A resolver for `client` under the command line's policy; `close()` when done. */
export function hostResolver(
  client: McpClient,
  args: HostArgs,
  mode: HostArgs['resolve'],
): { resolver: Resolver; close(): void } {
  const policy: ResolvePolicy = {
    select: mode === 'none' ? 'none' : 'all',
    // One limit on the command line: --budget, for a link's size and for the run (skipped: budget).
    budgetBytes: args.budgetBytes,
    maxLinkBytes: Number.POSITIVE_INFINITY,
    timeoutMs: args.timeoutMs,
  };
  const asking = mode === 'ask' ? terminalConsent() : undefined;
  if (asking) policy.consent = asking.consent;
  if (args.fetchUrls) {
    const guard = createGuard({ allow: args.allowAddresses, timeoutMs: args.timeoutMs });
    policy.fetchUrls = async (url, o) => {
      const extra: { signal?: AbortSignal; maxBytes: number } = { maxBytes: o.maxBytes };
      if (o.signal) extra.signal = o.signal;
      const got = await guard.fetch(url, extra);
      const out: { url: string; bytes: Uint8Array; mimeType?: string } = {
        url: got.url,
        bytes: got.bytes,
      };
      if (got.mimeType !== undefined) out.mimeType = got.mimeType;
      return out;
    };
  }
  const resolver = new Resolver(client, policy, { cache: false });
  return {
    resolver,
    close: () => {
      resolver.close();
      asking?.close();
    },
  };
}

export const sha256 = (parts: readonly Uint8Array[]): string => {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p);
  return hash.digest('hex');
};

export interface OutcomeJson {
  status: LinkOutcome['status'];
  reason?: string;
  bytes?: number;
  sha256?: string;
}

export interface BlockJson {
  type: string;
  uri?: string;
  name?: string;
  mimeType?: string;
  size?: number;
  outcome?: OutcomeJson;
}

export function outcomeJson(outcome: LinkOutcome): OutcomeJson {
  const out: OutcomeJson = { status: outcome.status };
  if (outcome.reason !== undefined) out.reason = outcome.reason;
  // The digest is of the bytes obtained: those kept, or those read and then turned away.
  const obtained = outcome.contents ?? outcome.discarded;
  if (obtained) {
    out.bytes = obtained.reduce((n, c) => n + c.size, 0);
    out.sha256 = sha256(obtained.map((c) => c.bytes));
  } else if (outcome.bytes !== undefined) out.bytes = outcome.bytes;
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One resolved block as `--json` prints it (`mimeType` as the server sent it). */
export function blockJson(entry: ResolvedBlock): BlockJson {
  if (entry.type === 'invalid') {
    return {
      type: 'invalid',
      outcome: { status: 'failed', reason: `INVALID_CONTENT: ${entry.error}` },
    };
  }
  const out: BlockJson = { type: entry.block.type };
  if (entry.type === 'resource') {
    const r: Record<string, unknown> = isObj(entry.block.resource) ? entry.block.resource : {};
    if (typeof r['uri'] === 'string') out.uri = r['uri'];
    if (typeof r['mimeType'] === 'string') out.mimeType = r['mimeType'];
    if (entry.contents) out.size = entry.contents.size;
    // A snapshot has no outcome; one that cannot be decoded says why.
    else out.outcome = { status: 'failed', reason: entry.error ?? 'INVALID_CONTENT' };
  } else if (entry.type === 'resource_link') {
    out.uri = entry.link.uri;
    out.name = entry.link.name;
    if (entry.link.mimeType !== undefined) out.mimeType = entry.link.mimeType;
    if (entry.link.size !== undefined) out.size = entry.link.size;
    out.outcome = outcomeJson(entry.outcome);
  } else {
    const mime = (entry.block as { mimeType?: unknown }).mimeType;
    if (typeof mime === 'string') out.mimeType = mime;
  }
  return out;
}

/**
 * Blocks of a tool result or of prompt messages, in order, taken as they are: anything that is
 * not a block is kept too, for the resolver to report as invalid (nothing is dropped silently).
 */
export function blocksOf(result: Record<string, unknown>): ContentBlock[] {
  const content = result['content'];
  if (Array.isArray(content)) return content as ContentBlock[];
  if (content !== undefined) return [content as ContentBlock];
  const messages = result['messages'];
  if (!Array.isArray(messages)) return [];
  const blocks: unknown[] = [];
  for (const m of messages as unknown[]) {
    if (!isObj(m)) blocks.push(m);
    // One by one, not push(...content): a message may hold more blocks than a call has stack for.
    else if (Array.isArray(m['content'])) for (const b of m['content'] as unknown[]) blocks.push(b);
    else blocks.push(m['content']);
  }
  return blocks as ContentBlock[];
}
