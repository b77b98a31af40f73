/** Connecting: the `server/discover` probe, or `initialize` for a 2025-11-25 server. */
import { McpKitError, ProtocolError } from '../errors/index.js';
import { ERROR_CODES, LATEST_LEGACY_VERSION, LATEST_PROTOCOL_VERSION } from '../protocol/index.js';
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';
import type { Connection } from './connection.js';
import { MAX_MESSAGE_BYTES_META, standardHeaders, withMeta } from './envelope.js';
import type { Envelope } from './envelope.js';
import { classifyProbe, identityFromInitialize } from './era-detect.js';
import type { ServerIdentity } from './era-detect.js';
import { checkResult } from './result-check.js';
import type { Warn } from './result-check.js';
import type { ClientWarning } from './options.js';

type Obj = Record<string, unknown>;

export interface HandshakeDeps {
  conn: Connection;
  /** undefined: probe; otherwise the pinned era. */
  era: Era | undefined;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  envelopeFor(era: Era, protocolVersion: string): Envelope;
  /** Budget of the probe (short on stdio, where a legacy server may stay silent). */
  probeTimeoutMs: number;
  timeoutMs: number;
  warn: Warn;
  /** The discover result, for the cache. */
  discovered?(result: Obj): void;
}

export async function handshake(deps: HandshakeDeps): Promise<ServerIdentity> {
  const { conn, era } = deps;
  if (era !== 'legacy') {
    const params = withMeta(deps.envelopeFor('modern', LATEST_PROTOCOL_VERSION), {});
    let outcome: { result: Obj } | { error: unknown };
    // Repairs of a probe answer matter only if the server turns out modern.
    const probeWarnings: ClientWarning[] = [];
    const discover = async (): Promise<Obj> => {
      const raw = await conn.send('server/discover', params, {
        timeoutMs: era === 'modern' ? deps.timeoutMs : deps.probeTimeoutMs,
        headers: standardHeaders(LATEST_PROTOCOL_VERSION, 'server/discover', params),
      }).done;
      return checkResult('modern', 'server/discover', raw, (w) => probeWarnings.push(w));
    };
    try {
      try {
        outcome = { result: await discover() };
      } catch (error) {
        // -32022 that lists the version we sent: a refusal of that attempt; retry once (new id).
        if (!listsLatest(error)) throw error;
        outcome = { result: await discover() };
      }
    } catch (error) {
      // Pinned: only a server's refusal says "not modern"; a timeout stays a timeout.
      if (era === 'modern' && !isRefusal(error)) throw error;
      outcome = { error };
    }
    const probe = classifyProbe(outcome);
    if (probe.kind === 'modern') {
      for (const warning of probeWarnings) deps.warn(warning);
      conn.transport.setEra('modern', LATEST_PROTOCOL_VERSION);
      if (probe.result) deps.discovered?.(probe.result);
      return probe.identity;
    }
    if (era === 'modern') {
      throw new McpKitError('UNSUPPORTED_VERSION', `not a 2026-07-28 server: ${probe.reason}`, {
        cause: 'error' in outcome ? outcome.error : undefined,
      });
    }
  }
  return initialize(deps);
}

/** The 2025-11-25 handshake; also run again when an HTTP session expires. */
export async function initialize(deps: HandshakeDeps): Promise<ServerIdentity> {
  const { conn } = deps;
  conn.transport.setEra('legacy', LATEST_LEGACY_VERSION);
  // experimental values must be objects: the cap travels as { bytes }.
  const experimental = {
    ...(deps.capabilities.experimental ?? {}),
    [MAX_MESSAGE_BYTES_META]: { bytes: conn.transport.maxMessageBytes },
  };
  // The cap rides in `_meta` too, as on every other request.
  const params = withMeta(deps.envelopeFor('legacy', LATEST_LEGACY_VERSION), {
    protocolVersion: LATEST_LEGACY_VERSION,
    capabilities: { ...deps.capabilities, experimental },
    clientInfo: deps.clientInfo,
  });
  const raw = await conn.send('initialize', params, {
    timeoutMs: deps.timeoutMs,
    headers: standardHeaders(undefined, 'initialize', params),
  }).done;
  const identity = identityFromInitialize(
    await checkResult('legacy', 'initialize', raw, deps.warn),
  );
  conn.transport.setEra('legacy', identity.protocolVersion);
  const version = identity.protocolVersion;
  const initialized = conn.notify(
    'notifications/initialized',
    {},
    standardHeaders(version, 'notifications/initialized', {}),
  );
  // Over HTTP it is a POST: one whose answer never comes must not hold connect() either.
  await within(initialized, deps.timeoutMs, 'notifications/initialized');
  // Bounded: a GET whose headers never come must not hold connect() (it goes on without it).
  await conn.transport.openServerStream(
    { 'MCP-Protocol-Version': version },
    { timeoutMs: deps.timeoutMs },
  );
  return identity;
}

/** `sent`, or REQUEST_TIMEOUT once `ms` passed (0 or Infinity: no limit). */
async function within(sent: Promise<void>, ms: number, what: string): Promise<void> {
  if (!(ms > 0 && Number.isFinite(ms))) return sent;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new McpKitError('REQUEST_TIMEOUT', `${what} got no answer within ${ms} ms`));
    }, ms);
  });
  try {
    await Promise.race([sent, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A -32022 whose `data.supported` lists 2026-07-28 (the version the probe sent). */
function listsLatest(error: unknown): boolean {
  if (!(error instanceof ProtocolError) || error.code !== ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION)
    return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(LATEST_PROTOCOL_VERSION);
}

/** An answer from the server itself (an error or an HTTP status), not a lost connection. */
function isRefusal(error: unknown): boolean {
  if (error instanceof ProtocolError) return true;
  return (
    error instanceof McpKitError &&
    error.code === 'HTTP_ERROR' &&
    typeof (error as { status?: unknown }).status === 'number'
  );
}
