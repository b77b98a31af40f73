/**
 * AttachTracker as the union of local and remote interest: hooks fire on the first listener
 * anywhere and after the last one everywhere; `onLocal` sees only this instance's own.
 */
import { describe, expect, it } from 'vitest';
import { AttachTracker } from './attach-tracker.js';

function tracked() {
  const t = new AttachTracker();
  const hooks: string[] = [];
  const local: string[] = [];
  t.onAttach({ attach: (u) => hooks.push(`+${u}`), detach: (u) => hooks.push(`-${u}`) });
  t.onLocal((u, on) => local.push(`${on ? '+' : '-'}${u}`));
  return { t, hooks, local };
}

describe('AttachTracker: local and remote interest', () => {
  it('local first, remote after: one attach; the detach waits for both to leave', () => {
    const { t, hooks, local } = tracked();
    t.add('m://x');
    t.setRemote('m://x', true);
    expect(hooks).toEqual(['+m://x']);
    t.remove('m://x');
    expect(hooks).toEqual(['+m://x']);
    expect(t.isAttached('m://x')).toBe(true);
    t.setRemote('m://x', false);
    expect(hooks).toEqual(['+m://x', '-m://x']);
    expect(local).toEqual(['+m://x', '-m://x']);
    expect(t.isAttached('m://x')).toBe(false);
  });

  it('remote first, local after: one attach; a remote leaving while a local listens detaches nothing', () => {
    const { t, hooks, local } = tracked();
    t.setRemote('m://x', true);
    t.setRemote('m://x', true); // said twice: still one
    t.add('m://x');
    t.setRemote('m://x', false);
    expect(hooks).toEqual(['+m://x']);
    t.remove('m://x');
    expect(hooks).toEqual(['+m://x', '-m://x']);
    expect(local).toEqual(['+m://x', '-m://x']);
  });

  it('remote interest alone attaches, covers sub-resources, and never reaches onLocal', () => {
    const { t, hooks, local } = tracked();
    t.setRemote('file:///d/', true);
    expect(t.isAttached('file:///d/a.md')).toBe(true);
    expect(t.isAttached('file:///e.md')).toBe(false);
    expect(t.hasLocal('file:///d/')).toBe(false);
    expect([...t.localUris()]).toEqual([]);
    t.setRemote('file:///d/', false);
    t.setRemote('file:///never', false);
    expect(hooks).toEqual(['+file:///d/', '-file:///d/']);
    expect(local).toEqual([]);
  });

  it('a late hook hears of remote and local URIs, each once', () => {
    const { t } = tracked();
    t.add('m://a');
    t.setRemote('m://a', true);
    t.setRemote('m://b', true);
    const late: string[] = [];
    t.onAttach({ attach: (u) => late.push(u), detach: () => undefined });
    expect(late.sort()).toEqual(['m://a', 'm://b']);
    expect(t.attached.sort()).toEqual(['m://a', 'm://b']);
  });

  it('a detach hook finds the URI no longer attached; an attach hook finds it attached', () => {
    const t = new AttachTracker();
    const seen: boolean[] = [];
    t.onAttach({
      attach: (u) => seen.push(t.isAttached(u)),
      detach: (u) => seen.push(t.isAttached(u)),
    });
    t.setRemote('m://x', true);
    t.setRemote('m://x', false);
    t.add('m://y');
    t.remove('m://y');
    expect(seen).toEqual([true, false, true, false]);
  });

  it('a hook that throws is reported through warn, and the others still run', () => {
    const warnings: string[] = [];
    const t = new AttachTracker((m) => warnings.push(m));
    const log: string[] = [];
    t.onAttach({
      attach: () => {
        throw new Error('boom');
      },
      detach: () => undefined,
    });
    t.onAttach({ attach: (u) => log.push(u), detach: () => undefined });
    t.setRemote('m://x', true);
    expect(log).toEqual(['m://x']);
    expect(warnings).toEqual([
      expect.stringMatching(/attach hook threw for "m:\/\/x": Error: boom/),
    ]);
  });
});
