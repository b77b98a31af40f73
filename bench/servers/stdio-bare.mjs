// "bare": a readline loop answering the precomputed result with the request's id.
import { createInterface } from 'node:readline';
import { RESULT } from '../lib/payload.mjs';

const HEAD = '{"jsonrpc":"2.0","result":' + JSON.stringify(RESULT) + ',"id":';

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // notification
  process.stdout.write(HEAD + JSON.stringify(msg.id) + '}\n');
});
