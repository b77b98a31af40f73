import { describe, expect, it } from 'vitest';
import type { JSONRPCRequest } from '../../protocol/jsonrpc.js';
import { LEGACY_VERSIONS } from '../../protocol/versions.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { testServer, testSession } from '../../testing/server-core.js';
import { LEGACY_METHODS, initialize } from './legacy.js';

const env = () => ({ core: testServer().core, auth: undefined });

const CLIENT = { name: 'legacy-client', version: '2.0.0' };

function initRequest(params: Record<string, unknown>): JSONRPCRequest {
  return { jsonrpc: '2.0', id: 7, method: 'initialize', params };
}

function handshake(params: Record<string, unknown>, instructions?: string) {
  const { server, core } = testServer(instructions === undefined ? {} : { instructions });
  const peer = server.connect({ transport: 'memory', send: () => {} });
  return { core, peer, response: initialize(core, peer, initRequest(params)) };
}

describe('LEGACY_METHODS', () => {
  it('has exactly the session-only methods of 2025-11-25', () => {
    expect(Object.keys(LEGACY_METHODS).sort()).toEqual([
      'logging/setLevel',
      'ping',
      'resources/subscribe',
      'resources/unsubscribe',
    ]);
  });

  it('answers ping with an empty result', () => {
    expect(LEGACY_METHODS['ping']!({}, testSession(), env())).toEqual({});
  });

  it('sets a known logging level on the session', () => {
    const session = testSession();
    expect(LEGACY_METHODS['logging/setLevel']!({ level: 'warning' }, session, env())).toEqual({});
    expect(session.logLevel).toBe('warning');
  });

  it.each(['verbose', 'WARNING', 'constructor', ''])(
    'refuses the unknown level %j with -32602 and leaves the session alone',
    (level) => {
      const session = testSession();
      session.logLevel = 'info';
      let thrown: unknown;
      try {
        LEGACY_METHODS['logging/setLevel']!({ level }, session, env());
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ProtocolError);
      expect(thrown).toMatchObject({
        code: -32602,
        message: `logging/setLevel: unknown level ${JSON.stringify(level)}`,
      });
      expect(session.logLevel).toBe('info');
    },
  );

  it('subscribes and unsubscribes URIs on the session, idempotently', () => {
    const session = testSession();
    const subscribe = LEGACY_METHODS['resources/subscribe']!;
    const unsubscribe = LEGACY_METHODS['resources/unsubscribe']!;
    subscribe({ uri: 'docs://a' }, session, env());
    subscribe({ uri: 'docs://b' }, session, env());
    subscribe({ uri: 'docs://a' }, session, env());
    expect([...session.subscriptions]).toEqual(['docs://a', 'docs://b']);
    expect(unsubscribe({ uri: 'docs://a' }, session, env())).toEqual({});
    unsubscribe({ uri: 'docs://never' }, session, env());
    expect([...session.subscriptions]).toEqual(['docs://b']);
  });
});

describe('initialize', () => {
  it.each(LEGACY_VERSIONS)('echoes the 2025-era version %s and opens a session', (version) => {
    const { core, peer, response } = handshake({
      protocolVersion: version,
      capabilities: { roots: {} },
      clientInfo: CLIENT,
    });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        protocolVersion: version,
        capabilities: core.capabilities(),
        serverInfo: core.info,
      },
    });
    expect(peer.session).toEqual({
      protocolVersion: version,
      clientCapabilities: { roots: {} },
      clientInfo: CLIENT,
      logLevel: undefined,
      // A Set that also attaches what it holds (listen-legacy.ts), empty at first.
      subscriptions: expect.any(Set),
      initialized: false,
    });
    expect(peer.session?.subscriptions.size).toBe(0);
  });

  it.each(['1999-01-01', '2026-07-28', 'latest'])(
    'answers the version %s, which it does not speak in this era, with 2025-11-25',
    (version) => {
      const { peer, response } = handshake({
        protocolVersion: version,
        capabilities: {},
        clientInfo: CLIENT,
      });
      expect(response).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
      expect(peer.session?.protocolVersion).toBe('2025-11-25');
    },
  );

  it('adds the server instructions when there are some', () => {
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT };
    expect(handshake(params, 'Be brief.').response).toMatchObject({
      result: { instructions: 'Be brief.' },
    });
    expect(handshake(params).response).not.toHaveProperty('result.instructions');
  });

  it.each([
    [
      'no capabilities',
      { protocolVersion: '2025-11-25', clientInfo: CLIENT },
      'params.capabilities',
    ],
    ['no clientInfo', { protocolVersion: '2025-11-25', capabilities: {} }, 'params.clientInfo'],
    [
      'a numeric version',
      { protocolVersion: 5, capabilities: {}, clientInfo: CLIENT },
      'params.protocolVersion',
    ],
  ])(
    'fails invalid params (%s) with -32602 and the field, opening no session',
    (_w, params, field) => {
      const { peer, response } = handshake(params);
      expect(response).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: expect.stringMatching(/^initialize: /), data: { field } },
      });
      expect(peer.session).toBeUndefined();
    },
  );
});
