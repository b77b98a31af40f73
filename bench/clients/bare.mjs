// The floor of case D: no client library, only what any Node client has to do to read the 1 KiB
// resource. It writes a prebuilt request line (stdio) or a POST with fixed headers over a keep-alive
// node:http agent (HTTP), and JSON.parses the answer. No checks, no cache, no timeouts, no era
// detection: whatever a real client costs above this line is the client's own cost.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { answerCounter } from '../lib/answered.mjs';
import { serveDriver } from '../lib/client-driver.mjs';
import { FILE_URI } from '../lib/client-payload.mjs';
import { META, VERSION } from '../lib/payload.mjs';

const params = JSON.stringify({ uri: FILE_URI, _meta: META });
const line = (id) => `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":${params}}`;
const textOf = (message) => {
  if (!message.result) throw new Error(`no result: ${JSON.stringify(message).slice(0, 300)}`);
  return message.result.contents[0].text;
};

function openStdio(spec) {
  const child = spawn(spec.command, spec.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const counter = answerCounter(child.pid);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => counter.feed(chunk));
  const waiting = new Map();
  let nextId = 0;
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const message = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      const w = waiting.get(message.id);
      if (!w) continue;
      waiting.delete(message.id);
      try {
        w.resolve(textOf(message));
      } catch (err) {
        w.reject(err);
      }
    }
  });
  child.once('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`server exited (${code})`));
    waiting.clear();
  });
  return {
    describe: 'bare loop (prebuilt line, JSON.parse)',
    read: () =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        child.stdin.write(line(id) + '\n');
      }),
    count: () => counter.query(),
    close: async () => {
      child.stdin.end();
      child.kill();
    },
  };
}

function openHttp(spec) {
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': 'resources/read',
    'mcp-name': FILE_URI,
  };
  let nextId = 0;
  return {
    describe: 'bare node:http POST (keep-alive, JSON.parse)',
    read: () =>
      new Promise((resolve, reject) => {
        const body = line(++nextId);
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent,
            headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => {
              try {
                if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text}`);
                resolve(textOf(JSON.parse(text)));
              } catch (err) {
                reject(err);
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: async () => agent.destroy(),
  };
}

serveDriver({
  open: async (spec) => (spec.transport === 'http' ? openHttp(spec) : openStdio(spec)),
});
