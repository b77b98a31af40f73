// A hostile 2026-07-28 MCP server whose resource links lie about their size. Plain Node.
// argv[2]: 'stdio' or 'http' (127.0.0.1, prints {"port"}); argv[3]: a file where it keeps
// {"reads", "written"}: resources/read requests seen and the bytes of their answers handed to
// the OS so far; argv[4] (http): 'sse' to answer reads as an SSE event instead of JSON.
//   tools/call links {n}    n resource_link blocks, each declaring `size: 10`
//   resources/read          a text of 30 MiB, written 256 KiB at a time as the client reads
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [mode, statsFile, shape] = process.argv.slice(2);
const SIZE = 30 * 1024 * 1024;
const CHUNK = 'x'.repeat(256 * 1024);
const meta = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
const stats = { reads: 0, written: 0 };
const save = () => writeFileSync(statsFile, JSON.stringify(stats));
save();

const rpc = (message) => JSON.stringify({ jsonrpc: '2.0', ...message });

function answerTo(id, method, params) {
  if (method === 'server/discover') {
    return rpc({
      id,
      result: {
        ...meta,
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'lying-links', version: '0.0.0' },
      },
    });
  }
  if (method === 'tools/list') {
    return rpc({
      id,
      result: { ...meta, tools: [{ name: 'links', inputSchema: { type: 'object' } }] },
    });
  }
  if (method === 'tools/call') {
    const n = params?.arguments?.n ?? 20;
    const content = Array.from({ length: n }, (_, i) => ({
      type: 'resource_link',
      uri: `file:///lie/${i}.txt`,
      name: `lie ${i}`,
      mimeType: 'text/plain',
      size: 10,
    }));
    return rpc({ id, result: { ...meta, content } });
  }
  return rpc({ id, error: { code: -32601, message: `Method not found: ${method}` } });
}

/** The parts of a 30 MiB read answer: head, SIZE bytes of text, tail. */
function readParts(id, params) {
  const head = `${rpc({ id, result: { ...meta, contents: [{ uri: params.uri, mimeType: 'text/plain', text: '' }] } }).slice(0, -5)}`;
  return { head, tail: '"}]}}' };
}

/** Writes `text` and resolves once it was handed to the OS; false once the stream is gone. */
function put(stream, text) {
  return new Promise((resolve) => {
    stream.write(text, (error) => {
      if (error) return resolve(false);
      stats.written += Buffer.byteLength(text);
      save();
      resolve(true);
    });
  });
}

async function writeRead(stream, id, params, prefix = '', suffix = '\n') {
  stats.reads++;
  save();
  const { head, tail } = readParts(id, params);
  if (!(await put(stream, prefix + head))) return false;
  for (let sent = 0; sent < SIZE; sent += CHUNK.length) {
    if (stream.destroyed || !(await put(stream, CHUNK))) return false;
  }
  return put(stream, tail + suffix);
}

if (mode === 'stdio') {
  // One answer at a time: lines must not interleave.
  let queue = Promise.resolve();
  let rest = '';
  process.stdout.on('error', () => process.exit(0));
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (line.trim() === '') continue;
      const { id, method, params } = JSON.parse(line);
      if (id === undefined || method === undefined) continue;
      queue = queue.then(async () => {
        if (method === 'resources/read') {
          if (!(await writeRead(process.stdout, id, params))) process.exit(0);
        } else await put(process.stdout, `${answerTo(id, method, params)}\n`);
      });
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const { id, method, params } = message;
      if (id === undefined) return res.writeHead(202).end();
      if (method !== 'resources/read') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(answerTo(id, method, params));
      }
      if (shape === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void writeRead(res, id, params, 'data: ', '\n\n').then(() => res.end());
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      void writeRead(res, id, params).then(() => res.end());
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
  );
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
