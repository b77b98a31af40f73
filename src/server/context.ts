import type { RequestId, JSONRPCNotification } from '../protocol/jsonrpc.js';
import { INPUT_KEY_META, META } from '../protocol/meta-keys.js';
import type {
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  ResourceLink,
  Role,
  Implementation,
  InputRequest,
  InputRequests,
  InputResponses,
  LoggingLevel,
} from '../protocol/types.js';
import type { Era } from '../protocol/versions.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { missingCapability } from '../errors/wire-errors.js';
import {
  attach,
  isAttachment,
  type Attachment,
  type AttachmentInput,
} from '../content/attachment.js';
import { AnswerBudget, type AnswerLease } from './answer-budget.js';
import type { Cancellation } from './cancellation.js';
import { InputRequiredSignal } from './input-required.js';
import { levelRank } from '../protocol/log-levels.js';
import { memberPath, validateDef } from '../protocol/validate.js';
import { isAuthInfo, type AuthInfo } from './auth-info.js';
import { assembleForResult, attachUri, type ContentEnv } from './result-assembly.js';

const CAPABILITY_OF: Record<InputRequest['method'], 'elicitation' | 'sampling' | 'roots'> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** What a 2026-07-28 answer to each input request must be (its result `$defs`). */
const RESULT_OF: Record<InputRequest['method'], string> = {
  'elicitation/create': 'ElicitResult',
  'sampling/createMessage': 'CreateMessageResult',
  'roots/list': 'ListRootsResult',
};

/** One root for every key: validators are kept per root, and the key goes in afterwards. */
const ANSWER_ROOT = 'answer';

/**
 * The client's answer to `request`, checked to be its result: the schema takes any of the three
 * results for any key, and a handler must not get a roots list for its elicitation.
 */
function checkedAnswer(method: string, key: string, request: InputRequest, answer: unknown) {
  const issue = validateDef('modern', RESULT_OF[request.method], answer, ANSWER_ROOT);
  if (!issue) return answer;
  const field = `${memberPath('params.inputResponses', key)}${issue.field.slice(ANSWER_ROOT.length)}`;
  const why = issue.message.slice(issue.field.length);
  throw ProtocolError.invalidParams(`${method}: ${field}${why} (${request.method} result)`, {
    field,
  });
}

/** A 2025-11-25 server request's params with its input key in `_meta` (for a bridge). */
function keyed(params: InputRequest['params'] | undefined, key: string): Record<string, unknown> {
  const p = (params ?? {}) as Record<string, unknown>;
  const meta = p['_meta'];
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...p, _meta: { ...base, [INPUT_KEY_META]: key } };
}

/** What `ctx.ask` resolves with: one result per key. */
type Answers<K extends string> = Record<K, Record<string, unknown>>;

/** How a context reaches the client; supplied by the server per request. */
export interface ContextChannel {
  notify: (message: JSONRPCNotification) => void;
  /** Legacy era only: sends a server-to-client request and waits for its result. */
  request?: (
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
  /** Minimum log level in force: the request's `_meta` (modern) or the session's (legacy). */
  logLevel: string | undefined;
  /** Legacy sessions send logs when no level was ever set. */
  logByDefault: boolean;
}

export interface ContextInit {
  method: string;
  requestId: RequestId;
  era: Era;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  meta: Record<string, unknown>;
  cancel: Cancellation;
  /** The hard cap for this request's result, in bytes. */
  capBytes: number;
  /** Whether this request's result may carry a streamed blob (see `RequestContext`). */
  streamsBodies?: boolean;
  /** This answer's share of the server's outbound budget (default: one of no bound). */
  answer?: AnswerLease;
  /** Binds result assembly to this request; called once, on first use. */
  content: (ctx: RequestContext) => ContentEnv;
  authInfo: unknown;
  inputResponses: InputResponses | undefined;
  answers: Record<string, unknown>;
  userState: unknown;
  channel: ContextChannel;
}

/**
 * What a handler knows about its request and how it talks back: progress, logs, and input from
 * the user or the client's model (MRTR in 2026-07-28, server requests in 2025-11-25).
 */
export class RequestContext {
  readonly method: string;
  readonly requestId: RequestId;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** The request's `_meta`. */
  readonly meta: Record<string, unknown>;
  /**
   * The hard cap, in bytes, for what this request's result may carry: the transport's message cap
   * (stdio line, HTTP response) less room for the envelope, or `content.capBytes`. Read handlers
   * use it to refuse a resource that cannot fit before reading it.
   */
  readonly capBytes: number;
  /**
   * Whether a read handler may answer a blob as a `StreamedBody` (mcpkit/content), sent from
   * its source as the client takes it instead of held in memory: true for `resources/read` on
   * a connection whose writer streams (HTTP), false elsewhere (stdio, in memory, and content
   * embedded in tool or prompt results, which is measured and assembled as strings).
   */
  readonly streamsBodies: boolean;
  /**
   * This answer's share of the server's outbound budget (`maxResponseTotalBytes`): a handler
   * about to produce a large answer reserves its bytes first (`await ctx.answer.reserve(n,
   * ctx.signal)`), and waits or gets a busy error when the server holds too much already.
   */
  readonly answer: AnswerLease;
  private readonly cancel: Cancellation;
  private readonly makeContent: (ctx: RequestContext) => ContentEnv;
  private contentEnv: ContentEnv | undefined;
  /** Whatever the transport authenticated (e.g. from an HTTP auth hook). */
  readonly authInfo: unknown;
  /**
   * The caller, as the authorization layer verified it (mcpkit/auth on HTTP): subject, client
   * id, scopes and claims. Undefined without one (stdio, an unprotected endpoint).
   */
  readonly auth: AuthInfo | undefined;
  /** The raw `inputResponses` of this round (modern era). */
  readonly inputResponses: InputResponses | undefined;
  private readonly answers: Record<string, unknown>;
  private userState: unknown;
  private readonly channel: ContextChannel;
  private lastProgress = -Infinity;

  constructor(init: ContextInit) {
    this.method = init.method;
    this.requestId = init.requestId;
    this.era = init.era;
    this.protocolVersion = init.protocolVersion;
    this.clientCapabilities = init.clientCapabilities;
    this.clientInfo = init.clientInfo;
    this.meta = init.meta;
    this.capBytes = init.capBytes;
    this.streamsBodies = init.streamsBodies ?? false;
    this.answer = init.answer ?? new AnswerBudget(Number.MAX_SAFE_INTEGER).lease();
    this.cancel = init.cancel;
    this.makeContent = init.content;
    this.authInfo = init.authInfo;
    this.auth = isAuthInfo(init.authInfo) ? init.authInfo : undefined;
    this.inputResponses = init.inputResponses;
    this.answers = init.answers;
    this.userState = init.userState;
    this.channel = init.channel;
  }

  /** Aborted when the client cancels or goes away. */
  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  private get env(): ContentEnv {
    this.contentEnv ??= this.makeContent(this);
    return this.contentEnv;
  }

  /** State carried across MRTR rounds, signed by the server (modern era). */
  get state(): unknown {
    return this.userState;
  }

  set state(value: unknown) {
    this.userState = value;
  }

  /** Sends `notifications/progress` when the request asked for it; ignores non-increasing values. */
  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta[META.progressToken];
    if ((typeof token !== 'string' && typeof token !== 'number') || progress <= this.lastProgress)
      return;
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params['total'] = total;
    if (message !== undefined) params['message'] = message;
    this.channel.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  /** Sends `notifications/message` when the client opted in at this level or below. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const min = this.channel.logLevel;
    if (min === undefined ? !this.channel.logByDefault : levelRank(level) < levelRank(min)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params['logger'] = logger;
    this.channel.notify({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  /** Whether the client declared a capability on this request (or session). */
  hasCapability(name: 'elicitation' | 'sampling' | 'roots' | (string & {})): boolean {
    const value = this.clientCapabilities[name];
    return typeof value === 'object' && value !== null;
  }

  /** Throws -32021 naming the capability when the client did not declare it. */
  requireCapability(name: 'elicitation' | 'sampling' | 'roots' | (string & {})): void {
    if (this.hasCapability(name)) return;
    throw missingCapability(this.method, name);
  }

  /**
   * Asks the client for input and resolves with one result per key. In 2026-07-28 this ends the
   * round with an InputRequiredResult and the handler runs again on the retry; earlier answers are
   * kept in the signed requestState, so a handler may call `ask` several times (multi-round).
   * In 2025-11-25 the requests go to the client at once as server-to-client requests.
   */
  async ask<K extends string>(requests: Record<K, InputRequest>): Promise<Answers<K>> {
    const keys = Object.keys(requests) as K[];
    for (const key of keys) this.requireCapability(CAPABILITY_OF[requests[key].method]);
    if (this.era === 'legacy') {
      const send = this.channel.request;
      if (!send) throw ProtocolError.internal('this transport cannot send requests to the client');
      const results = await Promise.all(
        keys.map((key) =>
          send(requests[key].method, keyed(requests[key].params, key), this.signal),
        ),
      );
      return Object.fromEntries(keys.map((key, i) => [key, results[i]])) as Answers<K>;
    }
    const current = this.inputResponses ?? {};
    const missing: InputRequests = {};
    let complete = true;
    for (const key of keys) {
      if (Object.hasOwn(current, key))
        this.answers[key] = checkedAnswer(this.method, key, requests[key], current[key]);
      if (!Object.hasOwn(this.answers, key)) {
        missing[key] = requests[key];
        complete = false;
      }
    }
    if (!complete) throw new InputRequiredSignal(missing, this.answers, this.userState);
    return Object.fromEntries(keys.map((key) => [key, this.answers[key]])) as Answers<K>;
  }

  /**
   * Describes a resource for this result: a URI this server serves (read only if it is embedded),
   * or content with a name. `ctx.result` or `ctx.messages` then embed or link it by the policy.
   */
  attach(source: string | AttachmentInput, options: Partial<AttachmentInput> = {}): Attachment {
    return typeof source === 'string'
      ? attachUri(this.env, source, options)
      : attach({ ...source, ...options });
  }

  /** Builds a tool result: attachments are embedded or linked so that the result fits. */
  async result(...items: Array<ContentBlock | Attachment>): Promise<CallToolResult> {
    const { content, meta } = await assembleForResult(this.env, items);
    return meta ? { content, _meta: meta } : { content };
  }

  /** Embeds a resource the result cannot do without; fails with sizes and advice when it cannot fit. */
  async embed(source: string | AttachmentInput | Attachment): Promise<EmbeddedResource> {
    const att =
      typeof source === 'string'
        ? this.attach(source, { required: true })
        : attach({ ...source, required: true, mode: 'embed' });
    const { content } = await assembleForResult(this.env, [att]);
    return content[0] as EmbeddedResource;
  }

  /** A `resource_link` to a URI this server serves; throws if nothing serves it. */
  async link(
    uri: string,
    fields: Partial<Omit<ResourceLink, 'type' | 'uri'>> = {},
  ): Promise<ResourceLink> {
    const att = attachUri(this.env, uri, { mode: 'link' });
    const { content } = await assembleForResult(this.env, [att]);
    const link = { ...(content[0] as ResourceLink), ...fields };
    if (!(await this.env.resolves(link.uri)))
      throw ProtocolError.internal(
        `${this.method}: ${uri} is served by no resource, template or link-store entry`,
      );
    return link;
  }

  /** Builds a prompt result: one block per message; attachments are embedded or linked together. */
  async messages(
    ...messages: Array<{ role: Role; content: ContentBlock | Attachment }>
  ): Promise<GetPromptResult> {
    // Each message wraps its block in {"role":"assistant","content":…} and a comma: 32 bytes.
    const blocks = messages.map((m) => m.content);
    const { content, meta } = await assembleForResult(this.env, blocks, 32);
    const out = messages.map((m, i) => ({ role: m.role, content: content[i] as ContentBlock }));
    return meta ? { messages: out, _meta: meta } : { messages: out };
  }

  /** Whether a value is an attachment (for handlers that build content generically). */
  static isAttachment(value: unknown): value is Attachment {
    return isAttachment(value);
  }
}
