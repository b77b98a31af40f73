/**
 * `mcpkit bridge --profile passthrough` end to end (the built CLI, real processes): what a
 * client sees through the bridge equals what it sees talking to the server directly, for
 * `@modelcontextprotocol/server-everything` (2025-11-25) and `mcpkit serve examples/docs`
 * (both eras), with the host's era chosen independently of the upstream's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { CLI } from './serve-harness.js';
import { bridgeArgv, stdioClient } from './bridge/harness.js';

const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
type Era = 'legacy' | 'modern';
type Obj = Record<string, unknown>;

const client = (argv: string[], era: Era | 'auto' = 'auto'): Promise<McpClient> =>
  stdioClient(argv, { era });

const bridge = (upstream: string[]): string[] => bridgeArgv('passthrough', upstream);

/** The requests both views are compared on. */
type Probe = [method: string, params: Obj];

/**
 * server-everything writes the clock time into its dynamic resources ("created at 3:47:03 PM"),
 * in text and inside base64 blobs; two calls can fall in different seconds, so the time is
 * masked before comparing. Everything else must match byte for byte.
 */
// Before AM/PM: a space, U+202F (ICU), or U+202F's UTF-8 bytes as a blob decoded as latin1.
const CLOCK = /created at \d{1,2}:\d{2}:\d{2}(?:(?:\s|\u00e2\u0080\u00af)?[AP]M)?/g;
function withoutClock(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (key !== 'blob') return value.replace(CLOCK, 'created at <time>');
    const text = Buffer.from(value, 'base64').toString('latin1');
    const masked = text.replace(CLOCK, 'created at <time>');
    return masked === text ? value : Buffer.from(masked, 'latin1').toString('base64');
  }
  if (Array.isArray(value)) return value.map((v) => withoutClock(v));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutClock(v, k)]));
  return value;
}

async function views(direct: McpClient, bridged: McpClient, probes: Probe[]) {
  const pairs: Array<[Obj, Obj, string]> = [];
  for (const [method, params] of probes) {
    const a = withoutClock(await direct.request(method, params)) as Obj;
    const b = withoutClock(await bridged.request(method, params)) as Obj;
    pairs.push([a, b, `${method} ${JSON.stringify(params)}`]);
  }
  return pairs;
}

const EVERYTHING_PROBES: Probe[] = [
  ['tools/list', {}],
  ['prompts/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['tools/call', { name: 'get-resource-links', arguments: { count: 3 } }],
  [
    'tools/call',
    { name: 'get-resource-reference', arguments: { resourceType: 'Blob', resourceId: 2 } },
  ],
  [
    'tools/call',
    { name: 'get-resource-reference', arguments: { resourceType: 'Text', resourceId: 1 } },
  ],
  ['tools/call', { name: 'get-tiny-image', arguments: {} }],
  [
    'tools/call',
    { name: 'get-annotated-message', arguments: { messageType: 'success', includeImage: true } },
  ],
  ['tools/call', { name: 'get-structured-content', arguments: { location: 'Chicago' } }],
  ['resources/read', { uri: 'demo://resource/static/document/architecture.md' }],
  ['resources/read', { uri: 'demo://resource/dynamic/blob/2' }],
  ['prompts/get', { name: 'args-prompt', arguments: { city: 'Paris', state: 'TX' } }],
  [
    'prompts/get',
    { name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '1' } },
  ],
];

describe('mcpkit bridge passthrough: server-everything (2025-11-25 upstream)', () => {
  const open: McpClient[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });

  it('a 2025-11-25 host sees exactly what a direct 2025-11-25 client sees', async () => {
    const direct = await client([process.execPath, EVERYTHING], 'legacy');
    const bridged = await client(bridge([process.execPath, EVERYTHING]), 'legacy');
    open.push(direct, bridged);
    expect(bridged.serverInfo).toEqual(direct.serverInfo);
    for (const [a, b, what] of await views(direct, bridged, EVERYTHING_PROBES))
      expect(b, what).toEqual(a);
    // Links, embedded resources and images reached the host unchanged.
    const links = await bridged.callTool('get-resource-links', { count: 3 });
    expect(links.content.filter((c) => c.type === 'resource_link').length).toBe(3);
    const image = await bridged.callTool('get-tiny-image', {});
    expect(image.content.some((c) => c.type === 'image')).toBe(true);
  });

  it('a 2026-07-28 host gets the same lists and results, in its own era', async () => {
    const direct = await client([process.execPath, EVERYTHING], 'legacy');
    const bridged = await client(bridge([process.execPath, EVERYTHING]), 'modern');
    open.push(direct, bridged);
    expect(bridged.era).toBe('modern');
    const modernOnly = ['resultType', 'ttlMs', 'cacheScope', '_meta'];
    for (const [a, b, what] of await views(direct, bridged, EVERYTHING_PROBES)) {
      expect(b['resultType'], what).toBe('complete');
      const meta = b['_meta'] as Obj;
      expect(meta['io.modelcontextprotocol/serverInfo'], what).toEqual(direct.serverInfo);
      const strip = (r: Obj): Obj =>
        Object.fromEntries(Object.entries(r).filter(([k]) => !modernOnly.includes(k)));
      const { 'io.modelcontextprotocol/serverInfo': _info, ...rest } = meta;
      expect(strip(b), what).toEqual(strip(a));
      expect(rest, what).toEqual((a['_meta'] as Obj | undefined) ?? {});
    }
  });
});

const SERVE = [process.execPath, CLI, 'serve', 'examples/docs', '--stdio', '--quiet', '--no-watch'];
const SERVE_PROBES: Probe[] = [
  ['tools/list', {}],
  ['prompts/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['tools/call', { name: 'read', arguments: { path: 'README.md' } }],
  ['tools/call', { name: 'read', arguments: { path: 'images/mcpkit.png' } }],
  ['tools/call', { name: 'read', arguments: { path: 'papers/overview.pdf' } }],
  ['resources/read', { uri: 'file:///notes/security.md' }],
  ['resources/read', { uri: 'file:///images/mcpkit.png' }],
  ['prompts/get', { name: 'review-file', arguments: { path: 'notes/security.md' } }],
];

describe('mcpkit bridge passthrough: mcpkit serve examples/docs', () => {
  const open: McpClient[] = [];
  beforeAll(() => undefined);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`a ${era === 'modern' ? '2026-07-28' : '2025-11-25'} host sees what a direct client of that era sees`, async () => {
      const direct = await client(SERVE, era);
      const bridged = await client(bridge(SERVE), era);
      open.push(direct, bridged);
      expect(bridged.era).toBe(era);
      expect(bridged.serverInfo).toEqual(direct.serverInfo);
      for (const [a, b, what] of await views(direct, bridged, SERVE_PROBES))
        expect(b, what).toEqual(a);
    });
  }

  it('pages pass through: the cursor the upstream gave walks the same list', async () => {
    const direct = await client(SERVE, 'modern');
    const bridged = await client(bridge(SERVE), 'modern');
    open.push(direct, bridged);
    expect(await bridged.listResources()).toEqual(await direct.listResources());
  });
});
