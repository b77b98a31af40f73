// `mcpkit serve` itself (dist/cli/main.js, same arguments), plus a count of the resources/read it
// answered with a result: on SIGUSR2 it writes `answered <count>` alone on a line to stderr.
// The count hooks the one door every transport goes through (Peer#handle, mcpkit/server/transport).
import { Peer } from '../../dist/server/transport.js';

let answered = 0;
const handle = Peer.prototype.handle;
Peer.prototype.handle = function countedHandle(raw, extra) {
  const settled = handle.call(this, raw, extra);
  if (raw?.method === 'resources/read') {
    settled.then(
      (response) => {
        if (response?.result !== undefined) answered++;
      },
      () => {},
    );
  }
  return settled;
};
process.on('SIGUSR2', () => process.stderr.write(`answered ${answered}\n`));

await import('../../dist/cli/main.js');
