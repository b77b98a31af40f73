/**
 * Scale-out with `mcpkit serve --http --redis`, real processes on a real redis-server: an artifact
 * link minted on one instance resolves on another, and 1,000 rapid changes seen by a watching
 * instance leave a listener on a `--no-watch` one with the final state while both processes'
 * memory stays bounded. Faults (Redis stopped, an instance killed) are in
 * scale-redis-faults.test.ts. Every wait has a deadline; nothing is timed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import { describeRedis } from './redis-harness.js';
import { MiB } from './serve-harness.js';
import { useRedisServes } from './serve-redis-harness.js';
import { folder, Recorded, until } from './watch-harness.js';

type Block = { type: string; uri?: string; name?: string; mimeType?: string; text?: string };

/** Resident memory of a process (Linux /proc), in bytes; undefined elsewhere. */
async function rss(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kib = status?.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

describeRedis('mcpkit serve --redis: scale-out', () => {
  const { instance, cleanups } = useRedisServes();

  it('a search artifact link minted on instance 1 resolves on instance 2, listing every match', async () => {
    const files: Record<string, string> = { 'okapi-notes.md': 'about the okapi' };
    for (let i = 0; i < 30; i++) files[`f-${String(i).padStart(2, '0')}.txt`] = `${i} okapi`;
    files['other.md'] = 'nothing to see';
    const f = await folder(files);
    cleanups.push(() => f.remove());
    const one = await instance(f.dir);
    const two = await instance(f.dir, ['--no-watch']);

    const result = await one.client.callTool('search', { query: 'okapi', limit: 5 });
    const content = result.content as Block[];
    // The summary, 5 file links, then the artifact link.
    expect(content).toHaveLength(7);
    expect(content[0]?.text).toMatch(/^31 files match "okapi"/);
    const link = content[6] as Block;
    expect(link).toMatchObject({
      type: 'resource_link',
      name: 'search-matches.json',
      mimeType: 'application/json',
    });
    expect(link.uri).toMatch(/^mcpkit:\/\/artifacts\//);
    const uri = link.uri as string;

    const onTwo = await two.client.readResource(uri, { cache: false });
    const [body] = onTwo.contents as Block[];
    expect(body).toMatchObject({ uri, mimeType: 'application/json' });
    const artifact = JSON.parse(body?.text ?? '') as {
      query: string;
      matches: Array<{ uri: string; name: string; where: string }>;
      complete: boolean;
      total: number;
    };
    expect(artifact).toMatchObject({ query: 'okapi', complete: true, total: 32 });
    const expected = Object.keys(files)
      .filter((name) => name !== 'other.md')
      .map((name) => `file:///${name}`)
      .sort();
    expect(artifact.matches.map((m) => m.uri).sort()).toEqual(expected);
    // The very bytes instance 1 serves for it.
    const onOne = await one.client.readResource(uri, { cache: false });
    expect((onOne.contents as Block[])[0]?.text).toBe(body?.text);

    // The control: an instance without the shared store cannot resolve it.
    const alone = await instance(f.dir, ['--no-watch'], false);
    const error = await alone.client.readResource(uri, { cache: false }).then(
      () => new Error('an instance without Redis resolved the link'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/not found/i) });
  });

  it('1,000 rapid changes: the --no-watch listener ends with the final state, memory bounded', async () => {
    const f = await folder({ 'hot.txt': 'start', 'keep.md': 'keep' });
    cleanups.push(() => f.remove());
    const watching = await instance(f.dir);
    const relying = await instance(f.dir, ['--no-watch']);
    const stream = new Recorded(
      await relying.client.listen({
        resourceSubscriptions: ['file:///hot.txt'],
        resourcesListChanged: true,
      }),
    );
    cleanups.push(() => stream.close());
    // Warm both up before the baseline; the relying client caches hot.txt's first text.
    for (const { client } of [watching, relying]) {
      expect((await client.readResource('file:///hot.txt')).contents[0]).toMatchObject({
        text: 'start',
      });
      await client.listResources();
    }
    const pids = [watching.http.child.pid, relying.http.child.pid];
    const before = await Promise.all(pids.map(rss));

    // As fast as the disk allows: 1,000 writes to one file, 100 new files among them.
    const created: string[] = [];
    for (let i = 0; i < 1000; i++) {
      await writeFile(f.path('hot.txt'), `version ${i}`);
      if (i % 10 === 0) {
        const name = `new-${String(i / 10).padStart(3, '0')}.md`;
        await writeFile(f.path(name), `new ${i}`);
        created.push(name);
      }
    }
    const updatesAtEnd = stream.updates('file:///hot.txt').length;
    await until(
      'an update of hot.txt after the last write',
      () => stream.updates('file:///hot.txt').length > updatesAtEnd,
      15_000,
    );
    // A read made after a notification already shows the change (both caches dropped it).
    const { contents } = await relying.client.readResource('file:///hot.txt');
    expect((contents[0] as Block | undefined)?.text).toBe('version 999');

    // Listed once per list change that arrives: the listing after the last one is complete.
    let seen = 0;
    let names: string[] = [];
    await until('a list change after which the listing holds all 100 new files', async () => {
      if (stream.listChanges() === seen) return false;
      seen = stream.listChanges();
      names = (await relying.client.listResources()).map((r) => r.name);
      return created.every((name) => names.includes(name));
    }).catch((e: unknown) => {
      throw new Error(`${String(e)}; ${seen} list changes, ${names.length} listed`);
    });
    expect(names).toHaveLength(102);
    expect(stream.ended).toBeUndefined();

    const after = await Promise.all(pids.map(rss));
    for (const [i, role] of ['watching', 'relying'].entries()) {
      const [b, a] = [before[i], after[i]];
      if (b === undefined || a === undefined) {
        console.warn(`no /proc/<pid>/status here: the ${role} instance's memory was not checked`);
        continue;
      }
      expect(a - b, `${role} RSS grew from ${b} to ${a} bytes`).toBeLessThan(64 * MiB);
    }
  });
});
