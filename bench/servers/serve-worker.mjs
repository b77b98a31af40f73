// "worker", the naive floor of the cold-real cell: answers resources/read by reading the file
// (fs.promises.readFile) per request, base64 for binaries, and JSON.stringify of the result shape
// mcpkit gives (`contents: [{uri, mimeType, text|blob}]` plus the top-level fields of mcpkit's own
// answer, read from EXTRAS). No cache, no checks (no traversal guard, no schema validation).
// With --guarded ("guarded worker"): the same, but each read makes the syscalls and checks of a
// guarded read as mcpkit makes them, as fs.promises calls on the main thread (realpath, stat,
// open with O_NOFOLLOW | O_NONBLOCK, fstat, the descriptor's path, read, fstat, close), refusing
// what leaves DIR, a hidden name or a special file, and answering a file that changed while it was
// read as an error; texts decoded as strict UTF-8. Still no cache, no schema validation.
// Usage: node serve-worker.mjs DIR --http|--stdio EXTRAS.json [--guarded]
import { constants, readFileSync } from 'node:fs';
import { open, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import mime from 'mime-types';
import { HTTP_PATH } from '../lib/payload.mjs';

const [dir, mode, extrasFile, guard] = process.argv.slice(2);
const extras = JSON.parse(readFileSync(extrasFile, 'utf8'));
const guarded = guard === '--guarded';
const root = guarded ? await realpath(dir) : dir;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const inside = (p) => p.startsWith(`${root}/`);

/** The bytes of `rel` under the folder, read as a guarded read is (see above). */
async function guardedRead(rel) {
  const names = rel.split('/');
  if (rel.includes('\0') || rel.startsWith('/') || names.some((n) => n === '..' || n[0] === '.'))
    throw new Error('refused path');
  const real = await realpath(path.join(root, rel));
  if (!inside(real) || !(await stat(real)).isFile()) throw new Error('not a file in the folder');
  const handle = await open(real, FLAGS);
  try {
    const before = await handle.stat();
    if (!before.isFile()) throw new Error('not a file');
    if (!inside(await readlink(`/proc/self/fd/${handle.fd}`))) throw new Error('moved');
    const bytes = Buffer.allocUnsafe(before.size);
    let n = 0;
    while (n < before.size) {
      const { bytesRead } = await handle.read(bytes, n, before.size - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    const after = await handle.stat();
    if (n !== before.size || after.size !== n || after.mtimeMs !== before.mtimeMs)
      throw new Error('the file changed while it was read');
    return bytes;
  } finally {
    await handle.close();
  }
}

/** The JSON-RPC answer text of one parsed request. */
async function answer(msg) {
  const uri = msg.params?.uri;
  if (msg.method !== 'resources/read' || typeof uri !== 'string' || !uri.startsWith('file:///'))
    return JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id ?? null,
      error: { code: -32601, message: `worker: ${msg.method} not served` },
    });
  const rel = decodeURIComponent(uri.slice('file:///'.length));
  const mimeType = mime.lookup(rel) || 'application/octet-stream';
  const isText = mimeType.startsWith('text/') || mimeType === 'application/json';
  try {
    const bytes = guarded ? await guardedRead(rel) : await readFile(path.join(dir, rel));
    const content = isText
      ? { uri, mimeType, text: guarded ? utf8.decode(bytes) : bytes.toString('utf8') }
      : { uri, mimeType, blob: bytes.toString('base64') };
    return JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id,
      result: { contents: [content], ...extras },
    });
  } catch (err) {
    return JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id,
      error: { code: -32002, message: `worker: ${err.message}` },
    });
  }
}

if (mode === '--stdio') {
  createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
    if (line.length === 0) return;
    const msg = JSON.parse(line);
    if (msg.id === undefined) return; // a notification
    answer(msg).then((text) => process.stdout.write(text + '\n'));
  });
} else {
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== HTTP_PATH) return void res.writeHead(404).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let msg;
      try {
        msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end();
      }
      const text = await answer(msg);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}
