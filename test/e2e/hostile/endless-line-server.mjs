// Answers server/discover, then answers tools/list with a line that never ends (it writes until killed).
import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (l) => {
  const m = JSON.parse(l);
  if (m.method === 'server/discover') {
    process.stdout.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: m.id,
        result: {
          supportedVersions: ['2026-07-28'],
          capabilities: {},
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
        },
      }) + '\n',
    );
  } else if (m.method === 'tools/list') {
    process.stdout.write(`{"jsonrpc":"2.0","id":${m.id},"result":{"tools":[{"name":"`);
    const chunk = 'a'.repeat(65536);
    const pump = () => {
      while (process.stdout.write(chunk));
      process.stdout.once('drain', pump);
    };
    pump();
  }
});
