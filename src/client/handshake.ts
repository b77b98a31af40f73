/** Connecting: the `server/discover` probe, or `initialize` for a 2025-11-25 server. */
import { McpKitError } from '../errors/index.js';
import { LATEST_LEGACY_VERSION, LATEST_PROTOCOL_VERSION } from '../protocol/index.js';
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';
import type { Connection } from './connection.js';
import { MAX_MESSAGE_BYTES_META, standardHeaders, withMeta } from './envelope.js';
import type { EnvelopeContext } from './envelope.js';
import { classifyProbe, identityFromInitialize } from './era-detect.js';
import type { ServerIdentity } from './era-detect.js';
import { checkResult } from './result-check.js';
import type { Warn } from './result-check.js';

type Obj = Record<string, unknown>;

export interface HandshakeDeps {
  conn: Connection;
  /** undefined: probe; otherwise the pinned era. */
  era: Era | undefined;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  envelopeFor(era: Era, protocolVersion: string): EnvelopeContext;
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
    try {
      const raw = await conn.send('server/discover', params, {
        timeoutMs: era === 'modern' ? deps.timeoutMs : deps.probeTimeoutMs,
        headers: standardHeaders(LATEST_PROTOCOL_VERSION, 'server/discover', params),
      }).done;
      outcome = { result: await checkResult('modern', 'server/discover', raw, deps.warn) };
    } catch (error) {
      if (era === 'modern') throw error;
      outcome = { error };
    }
    const probe = classifyProbe(outcome);
    if (probe.kind === 'modern') {
      conn.transport.setEra('modern', LATEST_PROTOCOL_VERSION);
      if (probe.result) deps.discovered?.(probe.result);
      return probe.identity;
    }
    if (era === 'modern') {
      throw new McpKitError('UNSUPPORTED_VERSION', `not a 2026-07-28 server: ${probe.reason}`);
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
  const params = {
    protocolVersion: LATEST_LEGACY_VERSION,
    capabilities: { ...deps.capabilities, experimental },
    clientInfo: deps.clientInfo,
  };
  const raw = await conn.send('initialize', params, {
    timeoutMs: deps.timeoutMs,
    headers: standardHeaders(undefined, 'initialize', params),
  }).done;
  const identity = identityFromInitialize(
    await checkResult('legacy', 'initialize', raw, deps.warn),
  );
  conn.transport.setEra('legacy', identity.protocolVersion);
  const version = identity.protocolVersion;
  await conn.notify(
    'notifications/initialized',
    {},
    standardHeaders(version, 'notifications/initialized', {}),
  );
  await conn.transport.openServerStream({ 'MCP-Protocol-Version': version });
  return identity;
}
