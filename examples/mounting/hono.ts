// Hono (here on @hono/node-server): the web-standard handler takes the Request and returns the
// Response. Run: npx tsx examples/mounting/hono.ts
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createHttpHandler } from 'mcpkit/http';
import { exitOnListenError, notesServer, PORT } from './notes-server.js';

const app = new Hono();
const mcp = createHttpHandler(notesServer());
app.all('/mcp', (c) => mcp(c.req.raw));

serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/mcp`);
}).once('error', exitOnListenError);
