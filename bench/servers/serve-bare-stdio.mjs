// "bare" of the serve cases over stdio: a readline loop that answers each request line with
// mcpkit's captured answer bytes for its method and params, the request's id spliced in.
// Usage: node serve-bare-stdio.mjs <table.json>
import { createInterface } from 'node:readline';
import { keyOfMessage, loadTable, unknown } from '../lib/replay-table.mjs';

const table = loadTable(process.argv[2], '\n');
const out = process.stdout;
let corked = false;
const uncork = () => {
  corked = false;
  out.uncork();
};

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // a notification
  const answer = table.get(keyOfMessage(msg));
  if (!answer) return void out.write(unknown(msg) + '\n');
  // One cork per burst of lines: the three pieces of each answer leave in one write.
  if (!corked) {
    corked = true;
    out.cork();
    process.nextTick(uncork);
  }
  out.write(answer[0]);
  out.write(JSON.stringify(msg.id));
  out.write(answer[1]);
});
