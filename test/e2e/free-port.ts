/**
 * Ports for processes that must be told theirs before they listen (an audience naming the URL, a
 * redis-server). Whatever can listen on port 0 and say which port it got should do that instead:
 * a port found free here may be taken by another test before the process binds it, so
 * `onFreePort` tries again on another when that happened.
 */
import { createServer } from 'node:net';

/** A port that was free on 127.0.0.1 a moment ago (listened on with port 0, then closed). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * `start(port)` on a free port; when it fails because the port was taken meanwhile (`taken`),
 * again on another, `tries` times in all.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  taken: (error: unknown) => boolean,
  tries = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= tries || !taken(error)) throw error;
    }
  }
}
