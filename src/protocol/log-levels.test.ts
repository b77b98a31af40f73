import { describe, expect, it } from 'vitest';
import { levelRank } from './log-levels.js';

const ORDER = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

describe('levelRank', () => {
  it('ranks the RFC 5424 levels from debug (least severe) to emergency', () => {
    expect(ORDER.map(levelRank)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it.each([undefined, '', 'warn', 'ERROR', 'fatal', 'constructor'])('ranks %j as -1', (level) => {
    expect(levelRank(level)).toBe(-1);
  });
});
