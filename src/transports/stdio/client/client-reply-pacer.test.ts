import { describe, expect, it } from 'vitest';
import type { LineEvent } from '../line-decoder.js';
import { ReplyPacer } from './client-reply-pacer.js';

function setup(limit = 4) {
  const stdout = {
    paused: false,
    pause: () => (stdout.paused = true),
    resume: () => (stdout.paused = false),
  };
  const seen: string[] = [];
  const pacer = new ReplyPacer(stdout, (e) => seen.push((e as { text: string }).text), limit);
  const line = (text: string): LineEvent => ({ kind: 'line', text });
  return { stdout, seen, pacer, line };
}

describe('ReplyPacer', () => {
  it('stops reading at the limit of unwritten replies, holds the rest of the chunk in order, resumes at half', () => {
    const { stdout, seen, pacer, line } = setup(4);
    // Each delivered line is a server request answered at once.
    const replying = (text: string): void => {
      pacer.take(line(text));
      if (!stdout.paused) pacer.replyQueued();
    };
    for (const t of ['a', 'b', 'c', 'd']) replying(t);
    expect(stdout.paused).toBe(true);
    pacer.take(line('e'));
    pacer.take(line('f'));
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    pacer.replyDone();
    expect(stdout.paused).toBe(true); // 3 unwritten: more than half
    pacer.replyDone();
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(stdout.paused).toBe(false);
  });

  it('held lines that bring replies again stop again before the rest', () => {
    const { stdout, seen, line } = setup(2);
    const deliverAndReply = new ReplyPacer(
      stdout,
      (e) => {
        seen.push((e as { text: string }).text);
        deliverAndReply.replyQueued();
      },
      2,
    );
    for (const t of ['a', 'b', 'c', 'd']) deliverAndReply.take(line(t));
    expect(seen).toEqual(['a', 'b']);
    deliverAndReply.replyDone();
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(stdout.paused).toBe(true);
    deliverAndReply.replyDone();
    deliverAndReply.replyDone();
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  it('flush delivers everything held (the child is gone), and pauses no more', () => {
    const { stdout, seen, pacer, line } = setup(1);
    pacer.replyQueued();
    expect(stdout.paused).toBe(true);
    pacer.take(line('x'));
    pacer.flush();
    expect(seen).toEqual(['x']);
    pacer.replyQueued();
    pacer.take(line('y'));
    expect(seen).toEqual(['x', 'y']);
  });
});
