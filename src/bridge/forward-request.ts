/**
 * Which host requests the bridge forwards (well-formed, in a known era; the engine answers the
 * rest with its own errors), and what a 2026-07-28 host declared on one.
 */
import { DEFAULT_MAX_DEPTH, deepField } from '../protocol/depth.js';
import { requestEra } from '../protocol/era.js';
import { classify } from '../protocol/jsonrpc.js';
import type { JSONRPCMessage, JSONRPCRequest } from '../protocol/jsonrpc.js';
import type { Era } from '../protocol/index.js';
import { META } from '../protocol/meta-keys.js';
import { validateParams } from '../protocol/validate.js';
import { isModernVersion } from '../protocol/versions.js';
import { levelRank } from '../protocol/log-levels.js';
import { checkModernMeta } from '../server/transport.js';
import type { HandleExtra, Peer } from '../server/transport.js';
import { FORWARDED_METHODS } from './forward-shape.js';

type Obj = Record<string, unknown>;

/** The request, when the bridge forwards it: well-formed, in a known era; else undefined. */
export function forwardable(
  peer: Peer,
  raw: unknown,
  extra: HandleExtra,
  maxDepth: number | undefined,
): { message: JSONRPCRequest; era: Era } | undefined {
  const c = classify(raw);
  if (c.kind !== 'request' || !FORWARDED_METHODS.has(c.message.method)) return undefined;
  const { method } = c.message;
  const params = c.message.params ?? {};
  if (deepField(c.message, maxDepth ?? DEFAULT_MAX_DEPTH) !== undefined) return undefined;
  const era = extra.era ?? requestEra({ method, params, inSession: peer.session !== undefined });
  if (era === 'modern') {
    if (checkModernMeta(params['_meta'], method)) return undefined;
    const meta = params['_meta'] as Obj;
    if (!isModernVersion(meta[META.protocolVersion])) return undefined;
  } else if (!peer.session) return undefined;
  if (validateParams(era, method, params)) return undefined;
  return { message: c.message, era };
}

/** The capabilities a 2026-07-28 host declared on its request (it answers input_required itself). */
export function hostCapabilities(params: Obj): Obj {
  const caps = (params['_meta'] as Obj | undefined)?.[META.clientCapabilities];
  return typeof caps === 'object' && caps !== null && !Array.isArray(caps) ? (caps as Obj) : {};
}

/**
 * Where an upstream log for this request goes: a 2026-07-28 host gets logs only at or above the
 * `logLevel` its request named (none without one), even from a 2025-11-25 upstream that logs by
 * default; a 2025-11-25 session's level is the upstream's business (it was forwarded).
 */
export function logSink(
  era: Era,
  params: Obj,
  notify: (message: JSONRPCMessage) => void,
): (message: JSONRPCMessage) => void {
  if (era !== 'modern') return notify;
  const min = (params['_meta'] as Obj | undefined)?.[META.logLevel];
  if (typeof min !== 'string' || levelRank(min) < 0) return () => undefined;
  return (message) => {
    const level = (message as { params?: { level?: unknown } }).params?.level;
    if (typeof level === 'string' && levelRank(level) >= levelRank(min)) notify(message);
  };
}
