// A server built with mcpkit (dist/) whose handlers throw, for the tests that the CLI shows a
// stdio server's stderr with a failure. Run: node test/e2e/inspect/throwing-server.mjs [--http]
// (over HTTP it prints "listening <url>" and serves until killed).
import { createServer } from '../../../dist/server/index.js';
import { serveStdio } from '../../../dist/transports/stdio/server/index.js';
import { serveHttp } from '../../../dist/transports/node.js';

const server = createServer({ name: 'throwing', version: '1.0.0' });
server.resource('note://broken', { name: 'broken', mimeType: 'text/plain' }, () => {
  throw new Error('the note store is unreachable: ECONNREFUSED 10.0.0.7:5432');
});
server.tool('pic', { description: 'a one-pixel picture' }, () => [
  { type: 'image', data: 'aGk=', mimeType: 'image/png' },
]);
server.tool('explode', {}, () => {
  throw new Error('the tool blew up: \x1b[31mdisk full\x1b[0m');
});
process.stderr.write('throwing server: started\n');

if (process.argv.includes('--http')) {
  const http = await serveHttp(server, { port: 0, host: '127.0.0.1' });
  process.stdout.write(`listening ${http.url}\n`);
} else {
  await serveStdio(server).closed;
}
