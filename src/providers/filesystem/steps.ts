/**
 * The provider's guarded reads written once, as generators of I/O steps, and run two ways: by
 * {@link runAsync} over any {@link ProviderFs}, or by {@link runSync} over its synchronous calls
 * ({@link SyncFs}) in one turn of the event loop. A step that cannot run synchronously (a wait
 * for a file to settle, a content sniff, a read in flight elsewhere, a large read) ends the
 * synchronous run: the generator is returned, its `finally` blocks close what it opened, and
 * the caller runs the same steps again asynchronously. Every check is the same code either way.
 */
import type { Stats } from 'node:fs';
import { sniffMime } from '../../content/mime.js';
import type { ProviderFileHandle, ProviderFs, SyncFs } from './fs-types.js';

/** An open file as the steps see it: the handle of whichever runner opened it. */
export interface OpenFile {
  readonly fd: number;
}

export type Step =
  | { readonly kind: 'realpath'; readonly path: string }
  | { readonly kind: 'stat'; readonly path: string }
  | { readonly kind: 'open'; readonly path: string; readonly flags: number }
  | { readonly kind: 'fstat'; readonly file: OpenFile }
  | {
      readonly kind: 'read';
      readonly file: OpenFile;
      readonly buffer: Buffer;
      readonly offset: number;
      readonly length: number;
      readonly position: number;
    }
  | { readonly kind: 'close'; readonly file: OpenFile }
  /** The kernel's path of a descriptor; undefined when the file system cannot tell. */
  | { readonly kind: 'fdPath'; readonly fd: number }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'sniff'; readonly bytes: Uint8Array }
  /** Another read's outcome (a shared read in flight). */
  | { readonly kind: 'wait'; readonly promise: Promise<unknown> }
  /** Nothing, but what follows would wait: a synchronous run stops here, before any I/O. */
  | { readonly kind: 'defer' };

export type Steps<T> = Generator<Step, T, unknown>;

/**
 * What steps know of their runner: its file system (for its settings: settleMs, the clock) and
 * whether it is the synchronous one, which makes a shared read inline rather than in flight.
 */
export interface StepIo {
  readonly fs: ProviderFs;
  readonly sync: boolean;
}

// Each helper is one step, typed by what it answers.
export function* realpathStep(path: string): Steps<string> {
  return (yield { kind: 'realpath', path }) as string;
}
export function* statStep(path: string): Steps<Stats> {
  return (yield { kind: 'stat', path }) as Stats;
}
export function* openStep(path: string, flags: number): Steps<OpenFile> {
  return (yield { kind: 'open', path, flags }) as OpenFile;
}
export function* fstatStep(file: OpenFile): Steps<Stats> {
  return (yield { kind: 'fstat', file }) as Stats;
}
export function* readStep(
  file: OpenFile,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): Steps<number> {
  return (yield { kind: 'read', file, buffer, offset, length, position }) as number;
}
export function* closeStep(file: OpenFile): Steps<void> {
  yield { kind: 'close', file };
}
export function* fdPathStep(fd: number): Steps<string | undefined> {
  return (yield { kind: 'fdPath', fd }) as string | undefined;
}
export function* sleepStep(ms: number): Steps<void> {
  yield { kind: 'sleep', ms };
}
export function* sniffStep(bytes: Uint8Array): Steps<string | undefined> {
  return (yield { kind: 'sniff', bytes }) as string | undefined;
}
export function* waitStep<T>(promise: Promise<T>): Steps<T> {
  return (yield { kind: 'wait', promise }) as T;
}
export function* deferStep(): Steps<void> {
  yield { kind: 'defer' };
}

async function perform(fs: ProviderFs | undefined, step: Step): Promise<unknown> {
  switch (step.kind) {
    case 'realpath':
      return needed(fs, step).realpath(step.path);
    case 'stat':
      return needed(fs, step).stat(step.path);
    case 'open':
      return needed(fs, step).open(step.path, step.flags);
    case 'fstat':
      return (step.file as ProviderFileHandle).stat();
    case 'read': {
      const handle = step.file as ProviderFileHandle;
      return (await handle.read(step.buffer, step.offset, step.length, step.position)).bytesRead;
    }
    case 'close':
      return (step.file as ProviderFileHandle).close();
    case 'fdPath':
      return fs?.fdPath?.(step.fd);
    case 'sleep':
      return (fs?.sleep ?? defaultSleep)(step.ms);
    case 'sniff':
      return sniffMime(step.bytes);
    case 'wait':
      return step.promise;
    case 'defer':
      return undefined;
  }
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

function needed(fs: ProviderFs | undefined, step: Step): ProviderFs {
  if (!fs) throw new Error(`a ${step.kind} step needs a file system`);
  return fs;
}

/**
 * Runs `steps` over `fs`, one awaited call per step. Steps on a handle alone (read, fstat,
 * close, sniff) need no `fs`: pass undefined.
 */
export async function runAsync<T>(fs: ProviderFs | undefined, steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    let failure: { error: unknown } | undefined;
    try {
      value = await perform(fs, next.value);
    } catch (error) {
      failure = { error };
    }
    next = failure ? steps.throw(failure.error) : steps.next(value);
  }
  return next.value;
}

/** `make` (a steps function taking a {@link StepIo} first) run asynchronously over `fs`. */
export function runAsyncWith<A extends unknown[], T>(
  fs: ProviderFs,
  make: (io: StepIo, ...args: A) => Steps<T>,
  ...args: A
): Promise<T> {
  return runAsync(fs, make({ fs, sync: false }, ...args));
}

/** What {@link runSync} answers when the steps need to wait: run them with {@link runAsync}. */
export const WOULD_WAIT = Symbol('would wait');

/** A descriptor the synchronous runner opened; closed once, as a FileHandle is. */
class SyncFile implements OpenFile {
  closed = false;
  constructor(readonly fd: number) {}
}

/**
 * Runs `steps` synchronously over `sync`, or answers {@link WOULD_WAIT} after unwinding them
 * (their `finally` blocks run, and the closes they yield are made) at the first step that
 * cannot run synchronously: a sleep, a sniff, a wait, a defer, or a read longer than
 * `sync.maxReadBytes`.
 */
export function runSync<T>(sync: SyncFs, steps: Steps<T>): T | typeof WOULD_WAIT {
  const { maxReadBytes } = sync;
  let next = steps.next();
  let unwinding = false;
  while (!next.done) {
    const step = next.value;
    if (!runsSync(step, maxReadBytes)) {
      // Only closes are expected while unwinding; anything else would be left undone.
      if (unwinding) throw new Error(`a ${step.kind} step while unwinding a synchronous read`);
      unwinding = true;
      next = steps.return(WOULD_WAIT as never);
      continue;
    }
    let value: unknown;
    let failure: { error: unknown } | undefined;
    try {
      value = performSync(sync, step);
    } catch (error) {
      failure = { error };
    }
    next = failure ? steps.throw(failure.error) : steps.next(value);
  }
  return unwinding ? WOULD_WAIT : next.value;
}

function runsSync(step: Step, maxReadBytes: number): boolean {
  switch (step.kind) {
    case 'sleep':
    case 'sniff':
    case 'wait':
    case 'defer':
      return false;
    case 'read':
      return step.length <= maxReadBytes;
    default:
      return true;
  }
}

function performSync(sync: SyncFs, step: Step): unknown {
  switch (step.kind) {
    case 'realpath':
      return sync.realpath(step.path);
    case 'stat':
      return sync.stat(step.path);
    case 'open':
      return new SyncFile(sync.open(step.path, step.flags));
    case 'fstat':
      return sync.fstat(open(step.file, 'fstat').fd);
    case 'read':
      return sync.read(
        open(step.file, 'read').fd,
        step.buffer,
        step.offset,
        step.length,
        step.position,
      );
    case 'close': {
      const file = step.file as SyncFile;
      // Twice is a no-op: the number may name another file by then.
      if (file.closed) return undefined;
      file.closed = true;
      return sync.close(file.fd);
    }
    case 'fdPath':
      return sync.fdPath?.(step.fd);
    default:
      throw new Error(`${step.kind} cannot run synchronously`);
  }
}

/** `file`, refused once closed (its number may name another file by then). */
function open(file: OpenFile, what: string): SyncFile {
  const f = file as SyncFile;
  if (f.closed)
    throw Object.assign(new Error(`EBADF: file closed, ${what}`), { code: 'EBADF', syscall: what });
  return f;
}
