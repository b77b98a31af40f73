import { describe, expect, it } from 'vitest';
import { resourceKey } from './client-urls.js';

describe('resourceKey', () => {
  it.each([
    ['https://h.example/mcp', 'https://h.example/mcp'],
    ['https://h.example/mcp#frag', 'https://h.example/mcp'],
    ['https://h.example/mcp#', 'https://h.example/mcp'],
    ['https://h.example/mcp?q=%23x#a#b', 'https://h.example/mcp?q=%23x'],
    ['https://u:p%23w@h.example:8443/a/../mcp/?x=1#', 'https://u:p%23w@h.example:8443/mcp/?x=1'],
  ])('keys %s under %s (no fragment, nothing else changed)', (given, key) => {
    expect(resourceKey(new URL(given))).toBe(key);
    const reparsed = new URL(given);
    reparsed.hash = '';
    expect(resourceKey(new URL(given))).toBe(reparsed.href);
  });
});
