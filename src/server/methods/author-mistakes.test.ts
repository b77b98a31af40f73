import { afterEach, describe, expect, it, vi } from 'vitest';
import { modern } from '../../testing/messages.js';
import { connectInMemory } from '../../transports/memory.js';
import { createServer } from '../server.js';
import type { ServerOptions } from '../options.js';

type Answer = {
  result?: { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  error?: { code: number; message: string };
};

afterEach(() => vi.restoreAllMocks());

function setup(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 'mistakes', version: '1.0.0', ...options });
  server.resource('note://hello', { name: 'hello', mimeType: 'text/plain' }, () => 'hi');
  server.tool('unserved', {}, (_a, ctx) => ctx.result(ctx.attach('note://missing')));
  server.tool('malformed', {}, (_a, ctx) => ctx.result(ctx.attach('not a uri')));
  server.tool('served', {}, (_a, ctx) => ctx.result(ctx.attach('note://hello')));
  server.tool('fails', {}, () => {
    throw new Error('the database is down');
  });
  server.prompt('cites', {}, (_a, ctx) =>
    ctx.messages({ role: 'user', content: ctx.attach('note://gone') }),
  );
  const conn = connectInMemory(server);
  const call = async (name: string) =>
    (await conn.send(modern('tools/call', { name }))) as unknown as Answer;
  return { conn, call };
}

describe('what is not the author’s mistake keeps its own error', () => {
  it('a URI a template refuses (a walk out of it) stays -32602, unlogged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = createServer({ name: 'mistakes', version: '1.0.0' });
    server.resource('file:///{+path}', { name: 'file' }, () => 'x');
    server.tool('walk', {}, (_a, ctx) => ctx.result(ctx.attach('file:///a/%2e%2e/b')));
    const r = (await connectInMemory(server).send(
      modern('tools/call', { name: 'walk' }),
    )) as unknown as Answer;
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).not.toMatch(/register it/);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('a handler attaching what nothing serves', () => {
  it('an unserved URI: -32603 naming the tool, the URI and the fix (not the client’s -32602), logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { call } = setup();
    const r = await call('unserved');
    expect(r.error?.code).toBe(-32603);
    expect(r.error?.message).toBe(
      'tool "unserved": attached note://missing, which no resource, template or link-store entry serves: ' +
        'register it (server.resource), or attach the content itself, such as ctx.attach({ uri, text, mimeType })',
    );
    expect(logged).toHaveBeenCalledWith(`mcpkit: ${r.error?.message}`);
  });

  it('a malformed URI: -32603 at once (no isError result the model would retry), logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { call } = setup();
    const r = await call('malformed');
    expect(r.result).toBeUndefined();
    expect(r.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^tool "malformed": attached "not a uri", which is not an absolute URI/,
      ),
    });
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('goes to onError when given (with its code and the method), not to stderr', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: Array<[string | undefined, string]> = [];
    const { call } = setup({
      onError: (e, m) => void seen.push([(e as { code?: string }).code, m]),
    });
    await call('unserved');
    await call('malformed');
    expect(seen).toEqual([
      ['ATTACHMENT_NOT_SERVED', 'tools/call unserved'],
      ['INVALID_URI', 'tools/call malformed'],
    ]);
    expect(logged).not.toHaveBeenCalled();
  });

  it('a prompt attaching an unserved URI: -32603 naming the prompt', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { conn } = setup();
    const r = (await conn.send(modern('prompts/get', { name: 'cites' }))) as unknown as Answer;
    expect(r.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^prompt "cites": attached note:\/\/gone, which no resource/),
    });
  });

  it('a served URI is embedded as before; a tool that throws is an isError result, and logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { call } = setup();
    expect((await call('served')).result?.content?.[0]).toMatchObject({ type: 'resource' });
    const failed = await call('fails');
    expect(failed.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool "fails" failed: the database is down' }],
    });
    expect(logged).toHaveBeenCalledWith('mcpkit: Tool "fails" failed: the database is down');
  });
});

describe('an attachment the author got wrong in other ways', () => {
  it('a template whose handler returns undefined: -32603 naming the tool, not -32602 for the call', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = createServer({ name: 'mistakes', version: '1.0.0' });
    server.resource('note://{name}', { name: 'note' }, (_u, { name }) =>
      name === 'hello' ? 'hi' : undefined,
    );
    server.tool('cite', {}, (_a, ctx) => ctx.result(ctx.attach('note://nothing')));
    const r = (await connectInMemory(server).send(
      modern('tools/call', { name: 'cite' }),
    )) as unknown as Answer;
    expect(r.error?.code).toBe(-32603);
    expect(r.error?.message).toMatch(
      /^tool "cite": attached note:\/\/nothing, which a template matches but whose read handler found nothing \(it returned undefined\)/,
    );
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'an attachment',
      { uri: 'bin://y', name: 'y', blob: 'not base64!' },
      /attached bin:\/\/y has a blob/,
    ],
    [
      'an image block',
      { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      /an image block has a blob/,
    ],
  ])(
    '%s with invalid base64: INVALID_BASE64, -32603 naming the tool, nothing on the wire',
    async (_what, item, wording) => {
      const seen: Array<[string | undefined, string]> = [];
      const server = createServer({
        name: 'mistakes',
        version: '1.0.0',
        onError: (e, m) => void seen.push([(e as { code?: string }).code, m]),
      });
      server.tool('blob', {}, (_a, ctx) =>
        ctx.result('type' in item ? (item as never) : ctx.attach(item as never)),
      );
      const r = (await connectInMemory(server).send(
        modern('tools/call', { name: 'blob' }),
      )) as unknown as Answer;
      expect(r.result).toBeUndefined();
      expect(r.error?.code).toBe(-32603);
      expect(r.error?.message).toMatch(/^tool "blob": /);
      expect(r.error?.message).toMatch(wording);
      expect(r.error?.message).toMatch(
        /not base64 \(character " " is not in the base64 alphabet at offset 3\)/,
      );
      expect(seen).toEqual([['INVALID_BASE64', 'tools/call blob']]);
    },
  );
});
