// HTTP clients: node:http for the well-behaved, raw net sockets for the hostile.
import http from 'node:http';
import net from 'node:net';
import { modern, modernHeaders, nameOf } from './mcp.mjs';

/** Splits SSE text into the JSON messages of its `data:` fields. */
export function parseSse(text) {
  const messages = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

/** Feeds SSE chunks as they come; calls `onMessage` per complete event. */
export function sseReader(onMessage) {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      for (const message of parseSse(block)) onMessage(message);
    }
  };
}

/**
 * POSTs `body` (object, string or Buffer); resolves with status, headers, the JSON-RPC messages
 * of the answer (JSON or SSE) and `answer`, the one carrying a result or an error. Rejects on a
 * network error or after `timeoutMs`.
 */
export function post(url, body, { headers = {}, agent, timeoutMs = 10_000 } = {}) {
  const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-length': Buffer.byteLength(payload) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', () => {});
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let messages = [];
        try {
          if (/event-stream/.test(res.headers['content-type'] ?? '')) messages = parseSse(text);
          else if (text) messages = [JSON.parse(text)];
        } catch {
          messages = [];
        }
        const answer = messages.find((m) => 'result' in m || 'error' in m);
        resolve({ status: res.statusCode, headers: res.headers, text, messages, answer });
      });
    });
    req.end(payload);
  });
}

/** POSTs a 2026-07-28 request with its headers. */
export function callModern(url, id, method, params, options = {}) {
  const headers = { ...modernHeaders(method, nameOf(method, params)), ...options.headers };
  return post(url, modern(id, method, params), { ...options, headers });
}

/** A keep-alive agent with `sockets` connections: one well-behaved client. */
export const clientAgent = (sockets = 1) =>
  new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });

/** Connects a raw socket to the server of `url`; resolves once connected. */
export function connectRaw(url, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('connect timeout'));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', reject);
      socket.on('error', () => {}); // resets are expected of hostile sockets
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The request line and headers of a POST to `url`, ready to write by hand. */
export function rawHead(url, headers, contentLength) {
  const lines = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${contentLength}`, '', '');
  return lines.join('\r\n');
}

/** The status code of the first response on a raw socket's received bytes, or undefined. */
export const rawStatus = (text) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || undefined;
