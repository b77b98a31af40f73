import { describe, expect, it } from 'vitest';
import { openerCommand } from './browser-opener.js';

const hostile = 'https://evil.example/a&calc&b?x=1&y="2"';

describe('openerCommand', () => {
  it('opens on Windows without a shell, the URL as one argument', () => {
    const [command, args] = openerCommand('win32', hostile)!;
    expect(command).toBe('rundll32');
    expect(command).not.toBe('cmd');
    expect(args).toEqual(['url.dll,FileProtocolHandler', new URL(hostile).href]);
    expect(args[1]).not.toContain('"');
  });

  it('uses open on macOS and xdg-open elsewhere, one argument each', () => {
    expect(openerCommand('darwin', 'https://as.example/authorize')).toEqual([
      'open',
      ['https://as.example/authorize'],
    ]);
    expect(openerCommand('linux', 'https://as.example/authorize')).toEqual([
      'xdg-open',
      ['https://as.example/authorize'],
    ]);
  });

  it('opens nothing but http(s)', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ms-settings:', 'not a url'])
      expect(openerCommand('win32', url)).toBeUndefined();
  });
});
