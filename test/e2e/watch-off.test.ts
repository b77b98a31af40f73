/**
 * `mcpkit serve DIR --no-watch` announces nothing: no `resources/updated`, no `list_changed`,
 * while its listing still follows the disk on demand (walked again when older than 2 s) and its
 * reads serve the current bytes. A watching server on the same folder is the control: once it
 * has announced the changes, the unwatched one had every chance to, and must not have.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { folder, serve, until, type Kind } from './watch-harness.js';

const running: Array<{ stop(): Promise<void> } | { remove(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await ('stop' in r ? r.stop() : r.remove());
});

describe.each<Kind>(['stdio', 'http'])('mcpkit serve %s --no-watch', (kind) => {
  it('sends nothing, and still lists and reads what changed', async () => {
    const f = await folder({ 'a.md': 'one' });
    running.push(f);
    const quiet = await serve(kind, f.dir, ['--no-watch']);
    running.push(quiet);
    const control = await serve('http', f.dir, ['--watch-debounce', '20ms']);
    running.push(control);
    const filter = { resourceSubscriptions: ['file:///a.md'], resourcesListChanged: true };
    const unwatched = await quiet.listen(filter);
    const watched = await control.listen(filter);

    await writeFile(f.path('a.md'), 'two');
    await writeFile(f.path('new.md'), 'new');
    await until('the watching server announced both', () => {
      return watched.updates('file:///a.md').length > 0 && watched.listChanges() > 0;
    });
    // Walked on demand (the listing is older than 2 s by now or soon), silently.
    await until('the unwatched listing shows new.md', async () =>
      (await quiet.names()).includes('new.md'),
    );
    expect(await quiet.read('a.md')).toBe('two');
    // Over stdio the answers above came after anything the walk could have sent; one more round
    // trip gives an HTTP listen stream (its own connection) the same chance.
    await quiet.names();
    expect(unwatched.frames).toEqual([]);
  });
});
