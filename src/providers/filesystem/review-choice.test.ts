import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/server.js';
import { modern } from '../../testing/messages.js';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { serveFolder } from './folder-server.js';

type Res = {
  result?: Record<string, unknown> & {
    resultType?: string;
    inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
    requestState?: string;
    messages?: Array<{ content: { type: string; resource?: { uri: string; text?: string } } }>;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const ELICIT = { elicitation: {} };
let dir: string;
let conn: MemoryConnection;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-review-choice-'));
  await writeFile(join(dir, 'README.md'), '# Read me\n');
  await writeFile(join(dir, 'readme-old.md'), 'old\n');
  await writeFile(join(dir, 'other.txt'), 'other\n');
  const server = createServer({ name: 't', version: '1' });
  await serveFolder(server, { root: dir, watch: false });
  conn = connectInMemory(server);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const review = (params: Record<string, unknown>, caps: Record<string, unknown> = ELICIT) =>
  conn.send(modern('prompts/get', { name: 'review-file', ...params }, caps)) as Promise<Res>;

describe('review-file of a path that names no file', () => {
  it('asks a client that takes elicitations which of the nearest files it meant, then reviews it', async () => {
    const first = await review({ arguments: { path: 'readme' } });
    expect(first.result?.resultType).toBe('input_required');
    const ask = first.result?.inputRequests?.['pick'];
    expect(ask?.method).toBe('elicitation/create');
    expect(ask?.params['message']).toContain('There is no file "readme"');
    const schema = ask?.params['requestedSchema'] as {
      properties: { path: { enum: string[] } };
    };
    expect(schema.properties.path.enum.sort()).toEqual(['README.md', 'readme-old.md']);
    expect(typeof first.result?.requestState).toBe('string');

    const second = await review({
      arguments: { path: 'readme' },
      inputResponses: { pick: { action: 'accept', content: { path: 'README.md' } } },
      requestState: first.result?.requestState,
    });
    expect(second.error).toBeUndefined();
    expect(second.result?.messages?.[0]?.content.resource).toMatchObject({
      uri: 'file:///README.md',
      text: '# Read me\n',
    });
  });

  it('refuses a tampered requestState, a declined choice and a chosen path that escapes', async () => {
    const first = await review({ arguments: { path: 'readme' } });
    const state = first.result?.requestState ?? '';
    const tampered = await review({
      arguments: { path: 'readme' },
      inputResponses: { pick: { action: 'accept', content: { path: 'README.md' } } },
      requestState: `${state.slice(0, -2)}xx`,
    });
    expect(tampered.error?.code).toBe(-32602);
    const declined = await review({
      arguments: { path: 'readme' },
      inputResponses: { pick: { action: 'decline' } },
      requestState: state,
    });
    expect(declined.error).toMatchObject({ code: -32602, data: { argument: 'path' } });
    expect(declined.error?.message).toContain('none was chosen (decline)');
    const escaping = await review({
      arguments: { path: 'readme' },
      inputResponses: { pick: { action: 'accept', content: { path: '../etc/passwd' } } },
      requestState: state,
    });
    expect(escaping.error).toMatchObject({
      code: -32602,
      data: { argument: 'path', path: '../etc/passwd' },
    });
    expect(escaping.error?.message).toContain('not one of the files offered');
    const unoffered = await review({
      arguments: { path: 'readme' },
      inputResponses: { pick: { action: 'accept', content: { path: 'other.txt' } } },
      requestState: state,
    });
    expect(unoffered.error?.message).toContain('"other.txt" cannot be reviewed');
  });

  it('does not send a form to a client that declared URL elicitation only', async () => {
    const res = await review({ arguments: { path: 'readme' } }, { elicitation: { url: {} } });
    expect(res.result?.resultType).toBeUndefined();
    expect(res.error).toMatchObject({ code: -32602, data: { argument: 'path' } });
    const both = await review(
      { arguments: { path: 'readme' } },
      { elicitation: { url: {}, form: {} } },
    );
    expect(both.result?.resultType).toBe('input_required');
  });

  it('answers -32602 at once without elicitation, or when no name is near', async () => {
    for (const res of [
      await review({ arguments: { path: 'readme' } }, {}),
      await review({ arguments: { path: 'zzz-nothing' } }),
    ]) {
      expect(res.error).toMatchObject({ code: -32602, data: { argument: 'path' } });
      expect(res.error?.message).toContain('no file');
    }
  });
});
