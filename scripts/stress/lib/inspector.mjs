// A minimal client of the server's inspector (--inspect=127.0.0.1:0), for one diagnostic: after
// the figure is taken, a full GC, then RSS and the V8 heap again. It tells garbage the server has
// not collected yet (or memory the allocator keeps) from memory it still holds. Never a target.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** Finds the inspector's ws:// URL in the server's stderr; undefined if it printed none. */
export const inspectorUrl = (stderr) => /ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+/.exec(stderr)?.[0];

function frame(text) {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x81, 0x80 | len])
      : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 255]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i & 3]));
  return Buffer.concat([head, mask, body]);
}

/** Unmasked server frames -> their texts; returns the bytes left over. */
function unframe(buffer, onText) {
  while (buffer.length >= 2) {
    let len = buffer[1] & 127;
    let at = 2;
    if (len === 126) [len, at] = [buffer.readUInt16BE(2), 4];
    else if (len === 127) [len, at] = [Number(buffer.readBigUInt64BE(2)), 10];
    if (buffer.length < at + len) break;
    if ((buffer[0] & 15) === 1) onText(buffer.subarray(at, at + len).toString('utf8'));
    buffer = buffer.subarray(at + len);
  }
  return buffer;
}

/** Sends CDP `methods` (names, or { method, params }) in order; resolves with their results. */
export function cdp(wsUrl, methods, timeoutMs = 10_000) {
  const url = new URL(wsUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const results = [];
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const timer = setTimeout(() => finish(new Error('inspector: no answer')), timeoutMs);
    const finish = (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(results);
    };
    const next = () => {
      if (results.length === methods.length) return finish();
      const call = methods[results.length];
      const message = typeof call === 'string' ? { method: call } : call;
      socket.write(frame(JSON.stringify({ id: results.length + 1, ...message })));
    };
    socket.on('error', finish);
    socket.on('connect', () =>
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!/^HTTP\/1\.1 101/.test(buffer.toString('latin1', 0, 12)))
          return finish(new Error('inspector: no upgrade'));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        next();
      }
      buffer = unframe(buffer, (text) => {
        const message = JSON.parse(text);
        if (message.id !== results.length + 1) return;
        results.push(message.result);
        next();
      });
    });
  });
}

const MEMORY = {
  method: 'Runtime.evaluate',
  params: { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true },
};

/**
 * Full GC in the server, then what its JavaScript still holds: V8 heap in use plus external
 * memory (Buffers), in bytes; null when there is no inspector.
 */
export async function collectAndMeasure(wsUrl) {
  if (!wsUrl) return null;
  const [, evaluated] = await cdp(wsUrl, ['HeapProfiler.collectGarbage', MEMORY]);
  const usage = JSON.parse(evaluated.result.value);
  return usage.heapUsed + usage.external;
}
