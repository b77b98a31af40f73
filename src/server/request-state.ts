import { ProtocolError } from '../errors/protocol-error.js';
import {
  base64UrlToBytes,
  bytesToBase64Url,
  decodeJsonBase64Url,
  encodeJsonBase64Url,
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

/**
 * JSON with object keys sorted, so that the same arguments give the same text whatever order a
 * client sends them in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Signs and verifies `requestState` with HMAC-SHA-256 (Web Crypto). */
export class RequestStateSigner {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;

  constructor(
    secret: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {
    const raw =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === 'string'
          ? utf8(secret)
          : secret;
    this.key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
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
    if (!ok) {
      throw ProtocolError.invalidParams(
        'params.requestState was not issued by this server or was altered',
      );
    }
    const state = decodeJsonBase64Url(body) as SignedBody | undefined;
    if (!state || state.t !== (await digest(target))) {
      throw ProtocolError.invalidParams('params.requestState belongs to another request');
    }
    if (state.x < Date.now()) {
      throw ProtocolError.invalidParams('params.requestState has expired: start the request again');
    }
    return { answers: state.answers ?? {}, user: state.user };
  }
}
