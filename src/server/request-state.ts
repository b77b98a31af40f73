import { ProtocolError } from '../errors/protocol-error.js';
import {
  base64UrlToBytes,
  bytesToBase64Url,
  decodeJsonBase64Url,
  encodeJsonBase64Url,
  hmacKey,
  type HmacKey,
  utf8,
} from './encoding.js';

/** What we carry between MRTR rounds. The client sees it only as an opaque, signed string. */
export interface RoundState {
  /** Answers gathered in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** State the handler chose to carry. */
  user?: unknown;
}

interface SignedBody extends RoundState {
  /** Binds the state to one request: method, target, arguments and caller (a SHA-256). */
  t: string;
  /** Expiry, ms since the epoch. */
  x: number;
}

/** A short fingerprint of the request a state belongs to (the target may be long). */
async function digest(target: string): Promise<string> {
  return bytesToBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(target))));
}

/** One open object or array while canonicalJson writes it: its sorted keys (objects) and cursor. */
interface Open {
  container: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  at: number;
}

/**
 * JSON with object keys sorted, so that the same arguments give the same text whatever order a
 * client sends them in. Iterative, with an explicit stack: its input (tool arguments, auth info)
 * may nest as deep as the caller let it. A cycle throws a TypeError as JSON.stringify does, or
 * with `onCycle: 'mark'` is written as "[cycle]" (for auth info, which is not the client's JSON).
 */
export function canonicalJson(value: unknown, onCycle: 'throw' | 'mark' = 'throw'): string {
  // Most targets bind no arguments and no auth info: no stack for those.
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (isEmptyPlain(value)) return Array.isArray(value) ? '[]' : '{}';
  const out: string[] = [];
  const stack: Open[] = [];
  const onPath = new Set<object>();
  let next: unknown = value;
  for (;;) {
    // As JSON.stringify does: a Date (or anything with toJSON) stands for what it returns.
    if (typeof (next as { toJSON?: unknown } | null)?.toJSON === 'function')
      next = (next as { toJSON: () => unknown }).toJSON();
    if (typeof next === 'object' && next !== null && onPath.has(next)) {
      if (onCycle === 'throw') throw new TypeError('canonicalJson: cannot serialize a cycle');
      out.push('"[cycle]"');
    } else if (typeof next === 'object' && next !== null) {
      onPath.add(next);
      const isArray = Array.isArray(next);
      out.push(isArray ? '[' : '{');
      stack.push({
        container: next as Record<string, unknown>,
        keys: isArray ? undefined : Object.keys(next).sort(),
        at: 0,
      });
    } else {
      out.push(JSON.stringify(next) ?? 'null');
    }
    // Close what is complete, then move to the next member of the innermost open container.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out.join('');
      const { container, keys } = top;
      const size = keys ? keys.length : (container as unknown[]).length;
      if (top.at === size) {
        out.push(keys ? '}' : ']');
        onPath.delete(container);
        stack.pop();
        continue;
      }
      if (top.at > 0) out.push(',');
      if (keys) {
        const key = keys[top.at] as string;
        out.push(`${JSON.stringify(key)}:`);
        next = (container as Record<string, unknown>)[key];
      } else {
        next = (container as unknown[])[top.at];
      }
      top.at++;
      break;
    }
  }
}

function isEmptyPlain(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const _ in value) return false;
  return true;
}

/** What a refused state's -32602 names in `data`, as every other param's does. */
const FIELD = Object.freeze({ field: 'params.requestState' });

/** Signs and verifies `requestState` with HMAC-SHA-256 (Web Crypto). */
export class RequestStateSigner {
  private readonly key: HmacKey;

  constructor(
    secret: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {
    this.key = hmacKey(secret, ['sign', 'verify']);
  }

  async sign(target: string, state: RoundState): Promise<string> {
    const body = encodeJsonBase64Url({
      ...state,
      t: await digest(target),
      x: Date.now() + this.ttlMs,
    } satisfies SignedBody);
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.key, utf8(body)));
    return `${body}.${bytesToBase64Url(mac)}`;
  }

  /** Returns the state, or throws -32602 when it was tampered with, expired or belongs elsewhere. */
  async verify(target: string, token: string): Promise<RoundState> {
    const dot = token.indexOf('.');
    const mac = dot > 0 ? base64UrlToBytes(token.slice(dot + 1)) : undefined;
    const body = dot > 0 ? token.slice(0, dot) : '';
    const ok =
      mac !== undefined && (await crypto.subtle.verify('HMAC', await this.key, mac, utf8(body)));
    if (!ok)
      throw ProtocolError.invalidParams(
        'params.requestState was not issued by this server or was altered',
        FIELD,
      );
    const state = decodeJsonBase64Url(body) as SignedBody | undefined;
    if (!state || state.t !== (await digest(target)))
      throw ProtocolError.invalidParams('params.requestState belongs to another request', FIELD);
    if (state.x < Date.now())
      throw ProtocolError.invalidParams(
        'params.requestState has expired: start the request again',
        FIELD,
      );
    return { answers: state.answers ?? {}, user: state.user };
  }
}
