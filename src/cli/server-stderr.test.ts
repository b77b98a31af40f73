import { describe, expect, it } from 'vitest';
import { STDERR_TAIL_BYTES, stderrSection } from './server-stderr.js';

describe('stderrSection', () => {
  it('is empty when the server wrote nothing (or only blanks)', () => {
    expect(stderrSection('')).toBe('');
    expect(stderrSection('\n  \n')).toBe('');
  });

  it('shows every line, indented, when it is short', () => {
    expect(stderrSection('Error: boom\n    at read (s.js:1:1)\n')).toBe(
      "the server's stderr:\n  | Error: boom\n  |     at read (s.js:1:1)\n",
    );
  });

  it('keeps the last 20 lines and says so', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const shown = stderrSection(text).split('\n');
    expect(shown[0]).toBe("the server's stderr (its last 20 lines):");
    expect(shown[1]).toBe('  | line 30');
    expect(shown[20]).toBe('  | line 49');
  });

  it('keeps at most 4 KiB, from a whole line', () => {
    const text = `${'x'.repeat(100_000)}\nshort\n${'y'.repeat(3000)}\nlast`;
    const shown = stderrSection(text);
    expect(shown.length).toBeLessThan(STDERR_TAIL_BYTES + 200);
    expect(shown).toContain('  | short\n');
    expect(shown).not.toContain('xxx');
    expect(shown.endsWith('  | last\n')).toBe(true);
  });

  it('escapes terminal controls', () => {
    expect(stderrSection('\x1b[2Jgone\u202e\r\n')).toBe(
      "the server's stderr:\n  | \\x1b[2Jgone\\u202e\n",
    );
  });
});

describe('stderrSection on long runs of blanks', () => {
  it('trims trailing blanks and cuts as before', () => {
    expect(stderrSection(`boom${' '.repeat(70_000)}\n\t`)).toBe("the server's stderr:\n  | boom\n");
    const shown = stderrSection(`${'a'.repeat(5000)}\nend${' '.repeat(100)}`);
    expect(shown).toBe("the server's stderr (its last 1 lines):\n  | end\n");
  });

  it('is not quadratic in a run of spaces followed by a letter', () => {
    // `/\s+$/` retries from every space of the run: 64 KiB took 7 s, 128 KiB takes half a minute.
    const text = `${' '.repeat(128 * 1024)}x${' '.repeat(128 * 1024)}`;
    expect(stderrSection(text)).toBe(
      `the server's stderr (its last 1 lines):\n  | ${' '.repeat(STDERR_TAIL_BYTES - 1)}x\n`,
    );
  }, 10_000);
});
