import type { ClientTransportSink } from '../../../client/transport.js';
import { isMcpKitError } from '../../../errors/index.js';
import type { Abort } from './client-abort.js';
import { networkError } from './client-failures.js';
import { SSE_TYPE, contentType, isOk, type ClientLink } from './client-link.js';
import type { HttpAnswer } from './client-requester.js';
import { pumpSse } from './client-sse-pump.js';
import { SseDecoder, type SseEvent } from './client-sse-reader.js';
import { reconnectDelay, sleep } from './client-wait.js';

/**
 * The 2025-11-25 GET stream on which the server sends requests (sampling, elicitation, roots,
 * ping) and notifications of its own. `ready` is called once the first GET is answered (405,
 * the server has none, is fine); a stream that drops is reopened with `Last-Event-ID` after
 * `retry:` ms, at most `maxReconnects` times in a row without news. Ends when `signal` aborts.
 */
export async function runServerStream(
  link: ClientLink,
  sink: ClientTransportSink,
  signal: Abort,
  extra: Record<string, string>,
  ready: () => void,
  deliver: (event: SseEvent) => void,
): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let misses = 0;
  for (;;) {
    // An expired session's stream is not reopened: the core initializes again and opens anew.
    if (link.session.expired !== undefined) return;
    const sent = link.session.header;
    let response: HttpAnswer | undefined;
    try {
      response = await link.get(extra, lastEventId, signal);
    } catch (error) {
      if (signal.aborted) return;
      const failure = isMcpKitError(error) ? error : networkError('GET', link.options.url, error);
      sink.warn(failure.code, failure.message);
    }
    if (response) {
      if (response.status === 405) {
        await response.cancel();
        return;
      }
      if (!isOk(response) || contentType(response) !== SSE_TYPE) {
        const failure = await link.streamFailure(response, sent);
        return sink.warn(failure.code, failure.message);
      }
      ready();
      const decoder = new SseDecoder(link.options.maxResponseBytes);
      let progressed = false;
      const end = await pumpSse(response, decoder, (event) => {
        progressed = true;
        if (!signal.aborted) deliver(event);
        return signal.aborted;
      });
      if (decoder.lastEventId !== undefined && decoder.lastEventId !== lastEventId) {
        progressed = true;
        lastEventId = decoder.lastEventId;
      }
      retryMs = decoder.retryMs ?? retryMs;
      if (signal.aborted) return;
      if (end.kind === 'too-large') {
        sink.warn(
          'RESPONSE_TOO_LARGE',
          `GET ${link.shownUrl}: dropped an SSE event over ${link.options.maxResponseBytes} bytes (maxResponseBytes)`,
        );
      }
      if (progressed) misses = 0;
    }
    ready();
    if (++misses > link.options.maxReconnects) {
      return sink.warn(
        'STREAM_INTERRUPTED',
        `GET ${link.shownUrl}: the server stream dropped ${misses} times without news; not reopened`,
      );
    }
    if (!(await sleep(reconnectDelay(retryMs), signal))) return;
  }
}
