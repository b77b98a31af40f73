// "worker", the naive floor of the cold-real cell: answers resources/read by reading the file
// (fs.promises.readFile) per request, base64 for binaries, and JSON.stringify of the result shape
// mcpkit gives (`contents: [{uri, mimeType, text|blob}]` plus the top-level fields of mcpkit's own
// answer, read from EXTRAS). No cache, no checks (no traversal guard, no schema validation).
// Usage: node serve-worker.mjs DIR --http|--stdio EXTRAS.json
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import mime from 'mime-types';
import { HTTP_PATH } from '../lib/payload.mjs';

const [dir, mode, extrasFile] = process.argv.slice(2);
const extras = JSON.parse(readFileSync(extrasFile, 'utf8'));

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
    const bytes = await readFile(path.join(dir, rel));
    const content = isText
      ? { uri, mimeType, text: bytes.toString('utf8') }
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
