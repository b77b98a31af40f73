// Preload (node --import) for a third-party HTTP server that only takes a port (PORT=0): every
// listen(port) binds 127.0.0.1, and the first one to listen prints
// "listening http://127.0.0.1:<port>/mcp" on stdout, the line the interop tests wait for.
import net from 'node:net';

const listen = net.Server.prototype.listen;
let announced = false;

net.Server.prototype.listen = function (...args) {
  const [first] = args;
  const isPort = typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first));
  if (isPort && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  else if (first && typeof first === 'object' && first.path === undefined) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  this.once('listening', () => {
    const address = this.address();
    if (announced || address === null || typeof address === 'string') return;
    announced = true;
    process.stdout.write(`listening http://127.0.0.1:${address.port}/mcp\n`);
  });
  return listen.apply(this, args);
};
