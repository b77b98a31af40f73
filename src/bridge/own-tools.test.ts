import { describe, expect, it } from 'vitest';
import { OwnTools } from './own-tools.js';

describe('the bridge read_resource tool', () => {
  it('never asks the upstream for a URI whose host the SSRF guard refuses', async () => {
    const asked: string[] = [];
    const tools = new OwnTools(new Set(), {
      read: (uri) => {
        asked.push(uri);
        return Promise.resolve({ contents: [{ uri, mimeType: 'text/plain', text: 'ok' }] });
      },
      list: () => Promise.resolve({ resources: [] }),
    });
    for (const uri of [
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost./admin',
      'https://[::1]/x',
      'ws://127.0.0.1/',
      // Non-special schemes: the URL parser leaves their host as written, a client does not.
      'gopher://127.1:6379/_x',
      'gopher://2130706433/',
      'sftp://0x7f000001/',
      'smb://0xa9fea9fe/',
      'ssh://0/',
    ]) {
      const result = await tools.call('read_resource', { uri });
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/SSRF guard/) });
    }
    expect(asked).toEqual([]);
    const fine = await tools.call('read_resource', { uri: 'file:///notes/a.md' });
    expect(fine.isError).toBeFalsy();
    expect(asked).toEqual(['file:///notes/a.md']);
    // An upstream's own scheme keeps its host as it is: `5` is not an address there.
    const own = await tools.call('read_resource', { uri: 'note://5' });
    expect(own.isError).toBeFalsy();
    expect(asked).toEqual(['file:///notes/a.md', 'note://5']);
  });
});
