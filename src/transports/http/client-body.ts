/**
 * Reading response bodies with a cap while they stream in: the client never buffers more of a
 * body than it will accept, whatever `Content-Length` says or omits.
 */

/** What a capped read gives: the text, or that the body passed the cap (reading stopped). */
export type CappedBody = { text: string; tooLarge: false } | { tooLarge: true };

/**
 * Reads `response`'s body as UTF-8 text, at most `cap` bytes. Past the cap it stops reading and
 * cancels the body (the caller aborts the fetch, which releases the connection).
 */
export async function readCappedBody(response: Response, cap: number): Promise<CappedBody> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    return { tooLarge: true };
  }
  const chunks = await readChunks(response, cap, false);
  if (chunks === undefined) return { tooLarge: true };
  return { text: decode(chunks), tooLarge: false };
}

/**
 * The first `cap` bytes of `response`'s body as text (an error page, for a message), the rest
 * cancelled. Never fails: a body that breaks off gives what came.
 */
export async function readBodyPrefix(response: Response, cap: number): Promise<string> {
  try {
    return decode((await readChunks(response, cap, true)) ?? []);
  } catch {
    return '';
  }
}

/** Drops a body the client has no use for (a 202's, a redirect's) so the connection is freed. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

async function readChunks(
  response: Response,
  cap: number,
  truncate: boolean,
): Promise<Uint8Array[] | undefined> {
  const body = response.body;
  if (!body) return [];
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      if (total + value.length > cap) {
        if (truncate) chunks.push(value.subarray(0, cap - total));
        await reader.cancel().catch(() => undefined);
        return truncate ? chunks : undefined;
      }
      total += value.length;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
}

function decode(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
