// "sdk" of the serve cases: the official SDK v2 server serving a folder with handlers equivalent
// to mcpkit serve's: a file:///{+path} template read from disk on each request (text or base64
// blob by MIME type), a review-file prompt embedding the file, a search tool scanning every text
// file's name and contents (case-insensitive) and linking the matches. The listing is walked once
// at start (mcpkit keeps an index too); contents are read per request, as an SDK server does (the
// SDK has no cache of its own). Usage: node serve-sdk.mjs <dir> --http | --stdio
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import mime from 'mime-types';
import * as z from 'zod';
import { McpServer, ResourceTemplate, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';

const [dir, mode] = process.argv.slice(2);
const INFO = { name: 'bench-sdk', version: '1.0.0' };

/** Every file under `root` (no dot-files, no node_modules), in path order. */
function walk(root, rel = '') {
  const out = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, p));
    else if (e.isFile()) {
      const mimeType = mime.lookup(e.name) || 'application/octet-stream';
      const isText = mimeType.startsWith('text/') || mimeType === 'application/json';
      out.push({ path: p, abs: path.join(root, p), uri: `file:///${p}`, mimeType, isText });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}
const files = walk(dir);
const byPath = new Map(files.map((f) => [f.path, f]));

function fileOf(p) {
  const f = byPath.get(p);
  if (!f) throw new Error(`no file ${JSON.stringify(p)}`);
  return f;
}

async function contentsOf(f) {
  const bytes = await readFile(f.abs);
  return f.isText
    ? { uri: f.uri, mimeType: f.mimeType, text: bytes.toString('utf8') }
    : { uri: f.uri, mimeType: f.mimeType, blob: bytes.toString('base64') };
}

const review = (p) =>
  `Review ${p}, embedded above. List, most important first: errors of fact or logic, ` +
  'contradictions, unclear or ambiguous passages, and information a reader would miss. ' +
  'Quote the exact lines you refer to and propose a concrete rewrite for each. ' +
  'End with a short verdict: is it ready to share, and what must change first?';

/** A resource link to `f`, described by where the query first matched. */
function linkOf(f, size, where) {
  return {
    type: 'resource_link',
    uri: f.uri,
    name: f.path,
    description: where,
    mimeType: f.mimeType,
    size,
  };
}

async function search(query, limit) {
  // A quoted phrase is matched as it is (the scan has no other query syntax).
  const q = query.replace(/^"(.*)"$/, '$1').toLowerCase();
  const links = [];
  let matched = 0;
  for (const f of files) {
    const byName = f.path.toLowerCase().includes(q);
    let where = byName ? 'name' : undefined;
    let size = 0;
    if (f.isText) {
      const text = await readFile(f.abs, 'utf8');
      size = Buffer.byteLength(text);
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.toLowerCase().includes(q));
      if (line >= 0) where = `line ${line + 1}: ${lines[line].trim().slice(0, 120)}`;
    } else size = statSync(f.abs).size;
    if (where === undefined) continue;
    matched++;
    if (links.length < limit) links.push(linkOf(f, size, where));
  }
  const summary = `${matched} file${matched === 1 ? '' : 's'} match ${JSON.stringify(query)}.`;
  return { content: [{ type: 'text', text: summary }, ...links] };
}

function build() {
  const server = new McpServer(INFO);
  server.registerResource(
    'file',
    new ResourceTemplate('file:///{+path}', { list: undefined }),
    {},
    async (uri, vars) => ({ contents: [await contentsOf(fileOf(decodeURIComponent(vars.path)))] }),
  );
  server.registerPrompt(
    'review-file',
    { argsSchema: z.object({ path: z.string() }) },
    async ({ path: p }) => {
      const f = fileOf(p);
      return {
        messages: [
          { role: 'user', content: { type: 'resource', resource: await contentsOf(f) } },
          { role: 'user', content: { type: 'text', text: review(p) } },
        ],
      };
    },
  );
  server.registerTool(
    'search',
    {
      inputSchema: z.object({
        query: z.string().min(1).max(500),
        limit: z.number().int().min(1).max(100).optional(),
      }),
    },
    async ({ query, limit }) => search(query, limit ?? 10),
  );
  return server;
}

if (mode === '--stdio') serveStdio(build);
else {
  // The SDK calls the factory once per HTTP request (stateless handler); that is its documented use.
  const node = toNodeHandler(createMcpHandler(build));
  const http = createServer((req, res) => void node(req, res));
  http.listen(0, '127.0.0.1', () => console.log(http.address().port));
}
