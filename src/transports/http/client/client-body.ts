/** Capped body reads: never more buffered than accepted, whatever `Content-Length` says. */
import type { HttpAnswer } from './client-requester.js';

/** What a capped read gives: the text, or that the body passed the cap (reading stopped). */
export type CappedBody = { text: string; tooLarge: false } | { tooLarge: true };

/**
 * Reads `response`'s body as UTF-8 text, at most `cap` bytes. Past the cap it stops reading and
 * cancels the body (the caller aborts the request, which releases the connection).
 */
export async function readCappedBody(response: HttpAnswer, cap: number): Promise<CappedBody> {
  const declared = Number(response.header('content-length') ?? Number.NaN);
  if (declared > cap) {
    await response.cancel();
    return { tooLarge: true };
  }
  const text = await response.readText(cap);
  return text === undefined ? { tooLarge: true } : { text, tooLarge: false };
}

/**
 * The first `cap` bytes of `response`'s body as text (an error page, for a message), the rest
 * cancelled. Never fails: a body that breaks off gives what came.
 */
export async function readBodyPrefix(response: HttpAnswer, cap: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for (;;) {
      const chunk = await response.read();
      if (chunk === undefined) return text + decoder.decode();
      if (total + chunk.length > cap) {
        text += decoder.decode(chunk.subarray(0, cap - total));
        await response.cancel();
        return text;
      }
      total += chunk.length;
      text += decoder.decode(chunk, { stream: true });
    }
  } catch {
    return text;
  }
}

/** How much of an unwanted body is read through so that its connection can be used again. */
const DRAIN_BYTES = 64 * 1024;
const DRAIN_MS = 1000;

/**
 * Drops a body the client has no use for (a 202's, a redirect's, a hostile server's requests in
 * answer to a reply). A short one is read to its end so that its connection goes back to the
 * pool (not churned on every POST); a long or slow one is cancelled, its connection closed.
 */
export async function discardBody(response: HttpAnswer): Promise<void> {
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, DRAIN_MS, 'late')));
  try {
    while (total <= DRAIN_BYTES) {
      const chunk = await Promise.race([response.read(), late]);
      if (chunk === undefined) return;
      if (chunk === 'late') break;
      total += chunk.length;
    }
  } catch {
    // Broken off: nothing left to free.
  } finally {
    clearTimeout(timer);
  }
  await response.cancel();
}
