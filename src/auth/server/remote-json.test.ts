import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteJson } from './remote-json.js';

let server: Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/moved') {
      // Another origin (localhost, not 127.0.0.1), over plain http.
      res.writeHead(302, { location: `http://localhost:${port}/jwks` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('RemoteJson', () => {
  it('refuses a learned plain-http URL without fetching it', async () => {
    const before = hits;
    const documents = new RemoteJson([], false);
    await expect(documents.get(`http://127.0.0.1:${port}/jwks`)).rejects.toThrow(/https/);
    await expect(documents.get('http://as.example/jwks')).rejects.toThrow(/https/);
    expect(hits).toBe(before);
  });

  it('takes learned plain http to loopback only when this server listens on loopback', async () => {
    const documents = new RemoteJson([], true);
    expect(await documents.get(`http://127.0.0.1:${port}/jwks`)).toEqual({ keys: [] });
  });

  it('takes the operator URL as given, but not a plain-http redirect to another origin', async () => {
    const trusted = `http://127.0.0.1:${port}/moved`;
    await expect(new RemoteJson([trusted], false).get(trusted)).rejects.toThrow(/https/);
    const direct = `http://127.0.0.1:${port}/jwks`;
    expect(await new RemoteJson([direct], false).get(direct)).toEqual({ keys: [] });
  });
});
