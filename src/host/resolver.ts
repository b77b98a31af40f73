/**
 * The link resolver: the host's consent boundary. Embedded resources (already across it) are
 * decoded and checked; links are read only when the policy selects them, they pass its allow-lists
 * and limits, and consent allows them. Every link ends with an outcome.
 *
 * @example
 * const resolver = new Resolver(client, { consent: (link) => askUser(link), mimeTypes: ['text/*'] });
 * const { blocks } = await resolver.resolve(result.content);
 */
import type { ContentBlock, EmbeddedResource, ResourceLink } from '../protocol/index.js';
import { uriProblem } from '../protocol/index.js';
import { decodeContents } from './decode.js';
import { LinkCache } from './link-cache.js';
import {
  isSelected,
  limitsOf,
  refuseAfterRead,
  refuseBeforeRead,
  type ConsentAnswer,
  type Limits,
  type ResolvePolicy,
} from './policy.js';
import { readLink, type ReadAnswer } from './read-link.js';
import { resolvedEntry } from './resolved-brand.js';
import { TurnBudget } from './turn-budget.js';
import type {
  LinkInfo,
  LinkOutcome,
  Resolution,
  ResolvedBlock,
  ResolvedLink,
  ResolverClient,
} from './types.js';

export interface ResolverOptions {
  /** A cache to share with other resolvers; `false`: none. Default: one per resolver. */
  cache?: LinkCache | false;
  /**
   * Who the server is, for `cacheScope: "public"` entries of a shared cache (its URL or command
   * line, say). Default: this client alone, so nothing is shared across clients by accident.
   */
  serverKey?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function linkInfo(
  block: ResourceLink,
  client: ResolverClient,
  warnings: string[],
  at: string,
): LinkInfo {
  const info = client.serverInfo;
  const server = info
    ? { name: info.name, ...(info.version ? { version: info.version } : {}) }
    : { name: 'unknown' };
  const link: LinkInfo = {
    uri: block.uri,
    name: typeof block.name === 'string' ? block.name : '',
    server,
  };
  for (const key of ['title', 'description', 'mimeType'] as const) {
    if (typeof block[key] === 'string') link[key] = block[key];
  }
  const size = (block as { size?: unknown }).size;
  if (typeof size === 'number' && Number.isSafeInteger(size) && size >= 0) link.size = size;
  else if (size !== undefined)
    warnings.push(`${at}.size is not a byte count (${String(size)}); ignored`);
  if (isObj(block.annotations)) link.annotations = block.annotations;
  return link;
}

async function answerOf(consent: NonNullable<ResolvePolicy['consent']>, link: LinkInfo) {
  try {
    const answer: ConsentAnswer = await consent(link);
    if (typeof answer === 'boolean') return { allow: answer, reason: undefined };
    return { allow: answer?.allow === true, reason: answer?.reason };
  } catch (error) {
    // Failing closed: a consent callback that breaks has not said yes.
    return { allow: false, reason: `the consent callback failed (${String(error)})` };
  }
}

interface Admitted {
  entry: ResolvedLink;
  claim: number;
  followers: ResolvedLink[];
}

export class Resolver {
  readonly cache: LinkCache | undefined;
  private readonly privateKey: string;
  private readonly sharedKey: string;
  private readonly unlisten: (() => void) | undefined;

  constructor(
    readonly client: ResolverClient,
    readonly policy: ResolvePolicy = {},
    options: ResolverOptions = {},
  ) {
    this.cache = options.cache === false ? undefined : (options.cache ?? new LinkCache());
    // Without a cache no key is ever used.
    this.privateKey = `client:${this.cache?.clientId(client) ?? 0}`;
    this.sharedKey =
      options.serverKey !== undefined ? `server:${options.serverKey}` : this.privateKey;
    const cache = this.cache;
    this.unlisten = cache
      ? client.addNotificationListener?.((note) => {
          const uri = note.params?.['uri'];
          if (note.method === 'notifications/resources/updated' && typeof uri === 'string')
            cache.invalidate(uri, this.scopes());
        })
      : undefined;
  }

  /** The key prefixes of this resolver's entries (its client's, and its server's shared ones). */
  private scopes(): string[] {
    return [`${this.privateKey}\n`, `${this.sharedKey}\n`];
  }

  /** Stops following the client's notifications (the cache stays as it is). */
  close(): void {
    this.unlisten?.();
  }

  /** Resolves the blocks of one tool result or prompt (one turn); `overrides` change the policy for it. */
  async resolve(
    blocks: readonly ContentBlock[],
    overrides: ResolvePolicy = {},
  ): Promise<Resolution> {
    const policy: ResolvePolicy = { ...this.policy, ...overrides };
    const limits = limitsOf(policy);
    const budget = new TurnBudget(limits.budgetBytes);
    const warnings: string[] = [];
    const out: ResolvedBlock[] = [];
    const admitted: Admitted[] = [];
    const byUri = new Map<string, Admitted | LinkOutcome>();
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i] as ContentBlock;
      const at = `content[${i}]`;
      // Blocks may come as received (an auditor's view): junk is passed on, with a warning.
      if (!isObj(block) || typeof block.type !== 'string') {
        const error = `${at} is not a content block (no string "type"); left unread`;
        warnings.push(error);
        out.push({ type: 'invalid', block, error });
        continue;
      }
      if (block.type === 'resource') {
        out.push(await this.embedded(block, at, warnings));
        continue;
      }
      if (block.type !== 'resource_link') {
        out.push({ type: block.type, block } as ResolvedBlock);
        continue;
      }
      const link = linkInfo(block, this.client, warnings, at);
      const entry: ResolvedLink = {
        type: 'resource_link',
        block,
        link,
        outcome: { status: 'skipped' },
      };
      out.push(entry);
      entry.outcome = await this.admit(policy, limits, budget, entry, byUri, admitted);
    }
    await this.readAll(policy, limits, budget, admitted);
    return { blocks: out.map((b) => resolvedEntry(b)), bytesRead: budget.used, warnings };
  }

  private async embedded(
    block: EmbeddedResource,
    at: string,
    warnings: string[],
  ): Promise<ResolvedBlock> {
    const decoded = await decodeContents(block.resource, `${at}.resource`);
    if ('error' in decoded) {
      warnings.push(decoded.error);
      return { type: 'resource', block, error: decoded.error, warnings: decoded.warnings };
    }
    warnings.push(...decoded.contents.warnings);
    return {
      type: 'resource',
      block,
      contents: decoded.contents,
      warnings: decoded.contents.warnings,
    };
  }

  /** Every check before a read, consent last; an admitted link's outcome is settled by `readAll`. */
  private async admit(
    policy: ResolvePolicy,
    limits: Limits,
    budget: TurnBudget,
    entry: ResolvedLink,
    byUri: Map<string, Admitted | LinkOutcome>,
    admitted: Admitted[],
  ): Promise<LinkOutcome> {
    const { link } = entry;
    const bad = typeof link.uri === 'string' ? uriProblem(link.uri) : 'not a string';
    if (bad !== undefined) {
      const reason = `INVALID_URI: the link's URI is not valid (${bad}): ${JSON.stringify(link.uri).slice(0, 200)}`;
      return { status: 'failed', code: 'INVALID_URI', reason };
    }
    let selected: boolean;
    try {
      selected = isSelected(policy, link);
    } catch (error) {
      // Failing closed, as with consent: a predicate that breaks has not chosen the link.
      const reason = `not-requested: the select predicate failed (${String(error)})`;
      return { status: 'skipped', code: 'not-requested', reason };
    }
    if (!selected) {
      return {
        status: 'skipped',
        code: 'not-requested',
        reason: 'not-requested: links are read only when the policy selects them',
      };
    }
    const refusal = refuseBeforeRead(policy, limits, link);
    if (refusal)
      return { status: 'refused', by: 'policy', code: refusal.code, reason: refusal.reason };
    const earlier = byUri.get(link.uri);
    if (earlier && 'entry' in earlier) {
      earlier.followers.push(entry);
      return entry.outcome;
    }
    if (earlier) return { ...earlier };
    const claim = link.size ?? 0;
    const over = budget.refuseClaim(claim);
    if (over) return { status: 'skipped', code: 'budget', reason: over };
    if (policy.consent) {
      const answer = await answerOf(policy.consent, link);
      if (!answer.allow) {
        const outcome: LinkOutcome = {
          status: 'refused',
          by: 'consent',
          code: 'consent',
          reason: `consent: ${answer.reason ?? 'refused'}`,
        };
        byUri.set(link.uri, outcome);
        return outcome;
      }
    }
    budget.reserve(claim);
    const item: Admitted = { entry, claim, followers: [] };
    byUri.set(link.uri, item);
    admitted.push(item);
    return entry.outcome;
  }

  private async readAll(
    policy: ResolvePolicy,
    limits: Limits,
    budget: TurnBudget,
    items: Admitted[],
  ): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) {
        const item = items[next++] as Admitted;
        item.entry.outcome = await this.readOne(policy, limits, budget, item);
        for (const f of item.followers) f.outcome = { ...item.entry.outcome };
      }
    };
    await Promise.all(Array.from({ length: Math.min(limits.concurrency, items.length) }, worker));
  }

  private async readOne(
    policy: ResolvePolicy,
    limits: Limits,
    budget: TurnBudget,
    item: Admitted,
  ): Promise<LinkOutcome> {
    const { uri } = item.entry.link;
    const cache = this.cache;
    const hit = cache?.get(`${this.privateKey}\n${uri}`) ?? cache?.get(`${this.sharedKey}\n${uri}`);
    const stopped = hit ? undefined : budget.refuseStart(item.claim);
    if (stopped) {
      budget.release(item.claim);
      return { status: 'skipped', code: 'budget', reason: stopped };
    }
    const generation = cache?.generation;
    const answer: ReadAnswer = hit
      ? {
          kind: 'read',
          contents: hit.contents,
          bytes: hit.bytes,
          source: 'server',
          ttlMs: 0,
          shared: false,
        }
      : await readLink({
          client: this.client,
          uri,
          fetchUrls: policy.fetchUrls,
          maxBytes: limits.maxLinkBytes,
          signal: policy.signal,
          timeoutMs: policy.timeoutMs,
        });
    budget.release(item.claim);
    if (answer.kind === 'refused') {
      const { by, code, reason, bytes } = answer;
      if (bytes === undefined) return { status: 'refused', by, code, reason };
      // A read stopped at its limit still read that much: the turn pays for it.
      budget.charge(bytes);
      return { status: 'refused', by, code, reason, bytes };
    }
    if (answer.kind === 'failed') {
      // The error its outcome keeps (a JSON-RPC error's data, say) came over the wire too.
      budget.charge(answer.bytes ?? 0);
      return { status: 'failed', code: answer.code, reason: answer.reason, error: answer.error };
    }
    // Not kept when the resource changed while it was read: the bytes may be the old ones.
    if (!hit && cache && cache.generation === generation) {
      const key = `${answer.shared ? this.sharedKey : this.privateKey}\n${uri}`;
      cache.put(key, uri, answer.contents, answer.bytes, answer.ttlMs);
    }
    const { contents, bytes } = answer;
    const refusal = refuseAfterRead(policy, limits, contents, bytes);
    if (refusal) {
      budget.charge(bytes);
      const { code, reason } = refusal;
      return { status: 'refused', by: 'policy', code, reason, bytes, discarded: contents };
    }
    const over = budget.refuseRead(bytes);
    if (over)
      return { status: 'skipped', code: 'budget', reason: over, bytes, discarded: contents };
    return { status: 'read', contents, bytes, source: hit ? 'cache' : answer.source };
  }
}

/** One turn with a resolver of its own (no cache kept between calls). */
export async function resolve(
  blocks: readonly ContentBlock[],
  client: ResolverClient,
  policy: ResolvePolicy = {},
): Promise<Resolution> {
  const resolver = new Resolver(client, policy, { cache: false });
  try {
    return await resolver.resolve(blocks);
  } finally {
    resolver.close();
  }
}
