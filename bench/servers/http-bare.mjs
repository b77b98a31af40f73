// "bare": plain node:http that parses the body and answers a precomputed result with the request's id.
import { createServer } from 'node:http';
import { HTTP_PATH, RESULT } from '../lib/payload.mjs';

const HEAD = '{"jsonrpc":"2.0","result":' + JSON.stringify(RESULT) + ',"id":';

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== HTTP_PATH) {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const body = HEAD + JSON.stringify(msg.id) + '}';
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
