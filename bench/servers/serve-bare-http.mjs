// "bare" of the serve cases over HTTP: plain node:http that parses each request, looks its method
// and params up in the table of mcpkit's captured answers and writes those bytes with the request's
// id spliced in (head, id, tail: large answers are never copied into one string).
// Usage: node serve-bare-http.mjs <table.json>
import { createServer } from 'node:http';
import { HTTP_PATH } from '../lib/payload.mjs';
import { keyOfMessage, loadTable, unknown } from '../lib/replay-table.mjs';

const table = loadTable(process.argv[2]);

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
    const answer = table.get(keyOfMessage(msg));
    if (!answer) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(unknown(msg));
      return;
    }
    const id = Buffer.from(JSON.stringify(msg.id));
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': answer[0].length + id.length + answer[1].length,
    });
    res.cork();
    res.write(answer[0]);
    res.write(id);
    res.end(answer[1]);
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
