// Express 5: mounted with app.use (or app.all), behind express.json() or not.
// Run: npx tsx examples/mounting/express.ts
import express from 'express';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'mcpkit/node';
import { exitOnListenError, notesServer, PORT } from './notes-server.js';

const app = express();
// Optional: a body express.json() parsed is taken from req.body. Its limit (100 KiB by default)
// then applies first; raise it to maxBodyBytes (4 MiB) or mount the handler before the parser.
app.use(express.json({ limit: '4mb' }));
app.use('/mcp', toNodeHandler(notesServer()));
app.get('/health', (_req, res) => void res.send('ok'));

// Express 5 calls this with the error when it cannot listen (the port taken, say).
const listener = app.listen(PORT, '127.0.0.1', (error) => {
  if (error) exitOnListenError(error);
  console.log(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`);
});
