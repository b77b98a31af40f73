import { describe, expect, it } from 'vitest';
import { McpKitError, ProtocolError } from '../errors/index.js';
import { FindingLog } from './audit-findings.js';
import { judged, TimeoutStreak, WalkStopped } from './audit-read.js';

const timeout = (): McpKitError => new McpKitError('REQUEST_TIMEOUT', 'no answer within 1000 ms');

describe('TimeoutStreak', () => {
  it('stops the walk at the third timeout in a row; any answer starts the count again', () => {
    const streak = new TimeoutStreak();
    const place = { method: 'resources/read', uri: 'x:/a' };
    streak.record(place, timeout());
    streak.record(place, timeout());
    streak.record(place, new ProtocolError(-32602, 'nope'));
    streak.record(place, undefined);
    streak.record(place, timeout());
    streak.record(place, timeout());
    expect(() => streak.record({ method: 'tools/call', name: 't' }, timeout())).toThrow(
      WalkStopped,
    );
  });

  it('is counted by judged, which throws WalkStopped with the last request', async () => {
    const ctx = {
      era: 'modern' as const,
      transport: 'stdio' as const,
      log: new FindingLog(),
      timeouts: new TimeoutStreak(2),
    };
    const hang = (): Promise<never> => Promise.reject(timeout());
    expect((await judged({ method: 'completion/complete' }, ctx, hang)).error).toBeInstanceOf(
      McpKitError,
    );
    const stopped = await judged({ method: 'prompts/get', name: 'p' }, ctx, hang).catch(
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(WalkStopped);
    expect(stopped).toMatchObject({ last: { method: 'prompts/get', name: 'p' }, timeouts: 2 });
  });
});
