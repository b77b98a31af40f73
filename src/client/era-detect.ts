/**
 * Which era a server speaks. 2026-07-28 clients probe with `server/discover`: a DiscoverResult,
 * or an error only a modern server sends, means modern; any other answer (404, 405, -32601, a
 * probe that times out on stdio) means a 2025-11-25 server, reached through `initialize`.
 */
import { McpKitError, ProtocolError } from '../errors/index.js';
import { ERROR_CODES, LATEST_PROTOCOL_VERSION, LEGACY_VERSIONS, META } from '../protocol/index.js';
import type { Implementation, ServerCapabilities } from '../protocol/index.js';
import { shown } from './shown.js';

type Obj = Record<string, unknown>;

/** Errors that only a 2026-07-28 server answers to a well-formed probe. */
const MODERN_ERRORS = new Set<number>([
  ERROR_CODES.HEADER_MISMATCH,
  ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY,
  ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
]);

export interface ServerIdentity {
  era: 'modern' | 'legacy';
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  supportedVersions?: string[];
  /** The discover or initialize result (checked; absent when a modern error stood in for it). */
  result?: Obj;
}

export type ProbeOutcome =
  { kind: 'modern'; identity: ServerIdentity; result?: Obj } | { kind: 'legacy'; reason: string };

/** Reads a probe's outcome: the discover result, or the error it got. */
export function classifyProbe(outcome: { result: Obj } | { error: unknown }): ProbeOutcome {
  if ('result' in outcome) {
    const r = outcome.result;
    const versions = Array.isArray(r['supportedVersions'])
      ? (r['supportedVersions'] as string[])
      : [];
    if (!versions.includes(LATEST_PROTOCOL_VERSION)) {
      if (versions.some((v) => LEGACY_VERSIONS.includes(v))) {
        return { kind: 'legacy', reason: `server/discover lists only ${shown(versions)}` };
      }
      throw unsupported(versions);
    }
    return { kind: 'modern', identity: identityFromDiscover(r), result: r };
  }
  const error = outcome.error;
  if (error instanceof ProtocolError && MODERN_ERRORS.has(error.code)) {
    if (error.code === ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION) {
      const supported = (error.data as { supported?: unknown } | undefined)?.supported;
      const list = Array.isArray(supported) ? supported.filter((v) => typeof v === 'string') : [];
      if (list.some((v) => LEGACY_VERSIONS.includes(v))) {
        return { kind: 'legacy', reason: `server supports ${shown(list)}` };
      }
      throw unsupported(list);
    }
    return {
      kind: 'modern',
      identity: {
        era: 'modern',
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        serverInfo: undefined,
        instructions: undefined,
      },
    };
  }
  if (error instanceof McpKitError) {
    const status = (error as { status?: unknown }).status;
    // A transport that cannot reach the server at all is no sign of an era.
    const fatal = ['SERVER_EXITED', 'SPAWN_FAILED', 'PEER_CLOSED', 'REQUEST_CANCELLED'];
    if (fatal.includes(error.code) || (error.code === 'HTTP_ERROR' && status === undefined))
      throw error;
    return { kind: 'legacy', reason: shown(error.message, 300) };
  }
  if (error instanceof ProtocolError) {
    return {
      kind: 'legacy',
      reason: `server/discover answered ${error.code} ${shown(error.message, 300)}`,
    };
  }
  throw error;
}

export function identityFromDiscover(r: Obj): ServerIdentity {
  const meta = (r['_meta'] ?? {}) as Obj;
  const info = (meta[META.serverInfo] ?? r['serverInfo']) as Implementation | undefined;
  const identity: ServerIdentity = {
    era: 'modern',
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: (r['capabilities'] ?? {}) as ServerCapabilities,
    serverInfo: info,
    instructions: typeof r['instructions'] === 'string' ? r['instructions'] : undefined,
    result: r,
  };
  if (Array.isArray(r['supportedVersions']))
    identity.supportedVersions = r['supportedVersions'] as string[];
  return identity;
}

export function identityFromInitialize(r: Obj): ServerIdentity {
  const version = r['protocolVersion'];
  if (typeof version !== 'string' || !LEGACY_VERSIONS.includes(version)) {
    throw new McpKitError(
      'UNSUPPORTED_VERSION',
      `initialize answered protocolVersion ${shown(version)}; this client speaks ${[LATEST_PROTOCOL_VERSION, ...LEGACY_VERSIONS].join(', ')}`,
    );
  }
  return {
    era: 'legacy',
    protocolVersion: version,
    capabilities: (r['capabilities'] ?? {}) as ServerCapabilities,
    serverInfo: r['serverInfo'] as Implementation | undefined,
    instructions: typeof r['instructions'] === 'string' ? r['instructions'] : undefined,
    result: r,
  };
}

function unsupported(versions: unknown[]): McpKitError {
  return new McpKitError(
    'UNSUPPORTED_VERSION',
    `the server supports ${versions.length ? shown(versions) : 'no version it named'}; this client speaks ${[LATEST_PROTOCOL_VERSION, ...LEGACY_VERSIONS].join(', ')}`,
  );
}
