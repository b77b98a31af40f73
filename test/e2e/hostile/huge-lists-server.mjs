// A hostile 2026-07-28 MCP server over stdio for the list and audit bounds
// (test/e2e/audit-hostile.test.ts, test/e2e/inspect-hostile.test.ts). Plain Node. Every list is
// generated lazily, page by page (nothing is kept), per the options in argv:
//   --resources N        resources/list lists N resources (file:///r/<i>), PAGE a page; each
//                        reads as one byte
//   --page N             entries per page (default 1000)
//   --prompts N --args A N prompts, each with A required arguments; completion/complete offers
//                        three values for every argument, and prompts/get refuses all but the last
//   --tools N            tools/list lists N tools, PAGE a page (default: the two of
//                        --hostile-text, else none)
//   --endless-tools      tools/list never ends: PAGE tools a page, a fresh cursor each time
//   --cursor-bytes N     every cursor handed out is N bytes long (with --tools or --endless-tools)
//   --description-bytes N  every tool has a description of N bytes
//   --hostile-text       names and descriptions carry C1 controls (U+009B CSI, U+009D OSC), bidi
//                        overrides and isolates (U+202E, U+2066), U+200B, a BOM and a soft hyphen
import { createInterface } from 'node:readline';

const opts = {
  tools: 0,
  resources: 0,
  page: 1000,
  prompts: 0,
  args: 0,
  cursorBytes: 0,
  descriptionBytes: 0,
};
const flags = new Set();
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  const key = arg.slice(2).replace(/-(\w)/g, (_, c) => c.toUpperCase());
  if (key in opts) opts[key] = Number(process.argv[++i]);
  else flags.add(key);
}

const HOSTILE = '\u009b2J\u009d0;owned\u0007\u202eevil\u200b\u2066x\u2069\ufeff\u00adend';
const mark = (text) => (flags.has('hostileText') ? `${text}${HOSTILE}` : text);

const meta = { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
const listed = (extra) => ({ ...meta, ...extra });

/** The next cursor: `<prefix><offset>`, padded to --cursor-bytes. */
function cursorFor(prefix, offset) {
  const base = `${prefix}${offset}:`;
  return opts.cursorBytes > base.length ? base + 'c'.repeat(opts.cursorBytes - base.length) : base;
}
const offsetOf = (cursor, prefix) =>
  cursor === undefined ? 0 : Number(String(cursor).slice(prefix.length).split(':')[0]);

function page(total, prefix, cursor, make) {
  const start = offsetOf(cursor, prefix);
  const end = Math.min(total, start + opts.page);
  const items = [];
  for (let i = start; i < end; i++) items.push(make(i));
  return { items, ...(end < total ? { nextCursor: cursorFor(prefix, end) } : {}) };
}

const description = opts.descriptionBytes > 0 ? 'd'.repeat(opts.descriptionBytes) : undefined;

function handle(method, params) {
  switch (method) {
    case 'server/discover':
      return {
        ...meta,
        cacheScope: 'private',
        supportedVersions: ['2026-07-28'],
        capabilities: {
          tools: {},
          resources: {},
          ...(opts.prompts > 0 ? { prompts: {}, completions: {} } : {}),
        },
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: mark('huge-lists'), version: '0.0.1' },
        },
      };
    case 'tools/list': {
      if (!flags.has('endlessTools') && opts.tools === 0) {
        // With --hostile-text: two tools of one name (name-reused quotes it).
        const tools = flags.has('hostileText')
          ? [0, 1].map(() => ({
              name: mark('tool'),
              description: mark('a tool'),
              inputSchema: { type: 'object' },
            }))
          : [];
        return listed({ tools });
      }
      const total = flags.has('endlessTools') ? Infinity : opts.tools;
      const { items, nextCursor } = page(total, 't', params.cursor, (i) => ({
        name: `tool-${i}`,
        ...(description ? { description } : {}),
        inputSchema: { type: 'object' },
      }));
      return listed({ tools: items, ...(nextCursor ? { nextCursor } : {}) });
    }
    case 'resources/list': {
      const { items, nextCursor } = page(opts.resources, 'r', params.cursor, (i) => ({
        uri: `file:///r/${i}`,
        name: mark(`r${i}`),
      }));
      return listed({ resources: items, ...(nextCursor ? { nextCursor } : {}) });
    }
    case 'resources/templates/list':
      return listed({ resourceTemplates: [] });
    case 'resources/read':
      return listed({ contents: [{ uri: params.uri, mimeType: 'text/plain', text: 'x' }] });
    case 'prompts/list': {
      const { items, nextCursor } = page(opts.prompts, 'p', params.cursor, (i) => ({
        name: `p${i}`,
        arguments: Array.from({ length: opts.args }, (_, j) => ({ name: `a${j}`, required: true })),
      }));
      return listed({ prompts: items, ...(nextCursor ? { nextCursor } : {}) });
    }
    case 'completion/complete':
      return { resultType: 'complete', completion: { values: ['v1', 'v2', 'v3'] } };
    case 'prompts/get': {
      const values = Object.values(params.arguments ?? {});
      if (values.some((v) => v !== 'v3')) throw { code: -32602, message: 'not that value' };
      return { resultType: 'complete', messages: [] };
    }
    default:
      throw { code: -32601, message: `Method not found: ${method}` };
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (raw) => {
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    return;
  }
  if (message.id === undefined || message.method === undefined) return;
  let out;
  try {
    out = { jsonrpc: '2.0', id: message.id, result: handle(message.method, message.params ?? {}) };
  } catch (error) {
    out = { jsonrpc: '2.0', id: message.id, error };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
});
input.on('close', () => process.exit(0));
