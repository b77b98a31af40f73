/**
 * An upstream for the bridge's e2e tests (stdio, run with tsx): a tool named `read_resource`
 * (so the bridge's own must be renamed), `crash` (the process exits: the bridge restarts it),
 * `hang` (never answers), `touch` (tells of a change to the text resource), `add-tool` (a list
 * change), `starts` (how many times this fixture was started, from a counter
 * file given as argv[2]) and a text resource.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from '../../../src/server/index.js';
import { serveStdio } from '../../../src/transports/stdio/server/index.js';

const counter = process.argv[2];
if (counter) appendFileSync(counter, 'x');
const server = createServer({ name: 'bridge-fixture', version: '1.0.0' });
server.tool(
  'read_resource',
  { description: 'the upstream own tool of that name' },
  () => 'upstream',
);
server.tool('crash', {}, () => {
  setTimeout(() => process.exit(3), 10);
  return 'bye';
});
server.tool('hang', {}, () => new Promise<string>(() => undefined));
server.tool('starts', {}, () => (counter ? String(readFileSync(counter, 'utf8').length) : '0'));
server.resource(
  'test://hello.txt',
  { name: 'hello', mimeType: 'text/plain' },
  () => 'héllo wörld\n',
);
server.tool('touch', {}, () => {
  server.notifyResourceUpdated('test://hello.txt');
  return 'touched';
});
server.tool('add-tool', {}, () => {
  server.tool('added', {}, () => 'new');
  return 'added';
});
serveStdio(server);
