/**
 * `mcpkit serve DIR --stdio` (a built CLI) driven by JSON lines: each answer goes to the sender
 * of its id, and a send fails once the process exits unanswered (with its stderr).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface LinesServe<A> {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote on stderr so far. */
  readonly out: { stderr: string };
  /** Its exit code, once it exited. */
  readonly exited: Promise<number | null>;
  send(message: { id: number }): Promise<A>;
}

/** `node CLI serve DIR --stdio ...args`; `children`: where the test keeps it (to kill it). */
export function serveLines<A extends { id: number }>(
  cli: string,
  dir: string,
  args: readonly string[],
  children: ChildProcessWithoutNullStreams[],
): LinesServe<A> {
  const child = spawn(process.execPath, [cli, 'serve', dir, '--stdio', ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stderr: '' };
  child.stderr.setEncoding('utf8').on('data', (text: string) => (out.stderr += text));
  const waiting = new Map<number, (answer: A) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as A;
    waiting.get(answer.id)?.(answer);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const send = (message: { id: number }): Promise<A> =>
    new Promise<A>((resolve, reject) => {
      waiting.set(message.id, resolve);
      void exited.then((code) => reject(new Error(`serve exited (${code}): ${out.stderr}`)));
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  return { child, out, exited, send };
}
