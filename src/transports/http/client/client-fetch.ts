import { discardBody } from './client-body.js';
import { networkError, shownUrl, statusError, statusLine } from './client-failures.js';
import { MAX_REDIRECTS, type ResolvedClientOptions } from './client-options.js';
import { MAX_AUTH_RETRIES } from '../../../auth/client-hook.js';
import type { HttpAnswer, HttpRequest } from './client-requester.js';

/** Redirects that keep the method and body when `allowRedirects` follows them. */
const FOLLOWED = new Set([301, 302, 307, 308]);

export type HttpCall = Omit<HttpRequest, 'url'>;

/**
 * One HTTP exchange through the options' requester, redirects handled by hand: refused unless
 * `allowRedirects`, and then followed to the same origin only, so that the extra headers
 * (`authorization`) never reach another host. Rejects with HTTP_REDIRECT or HTTP_ERROR (a
 * network failure), or with the abort reason once `signal` aborted.
 */
export async function fetchMcp(
  options: ResolvedClientOptions,
  call: HttpCall,
): Promise<HttpAnswer> {
  const auth = options.auth;
  if (auth === undefined) return fetchHops(options, call);
  for (let retry = 0; ; retry++) {
    const headers = { ...call.headers };
    const sent = await auth.authorization(options.url);
    if (sent === undefined) delete headers['authorization'];
    else headers['authorization'] = sent;
    const response = await fetchHops(options, { ...call, headers });
    if ((response.status !== 401 && response.status !== 403) || retry >= MAX_AUTH_RETRIES) {
      return response;
    }
    let again: boolean;
    // The request's abort reaches the hook's interactive step (a sign-in in the browser): a
    // cancelled request does not leave one waiting, and every other request behind it.
    const controller = new AbortController();
    const unlisten = call.signal.listen(() => controller.abort(call.signal.reason));
    if (call.signal.aborted) controller.abort(call.signal.reason);
    try {
      again = await auth.challenge({
        status: response.status,
        url: options.url,
        wwwAuthenticate: response.header('www-authenticate'),
        sent,
        signal: controller.signal,
      });
    } catch (error) {
      await discardBody(response);
      throw error;
    } finally {
      unlisten();
    }
    if (!again) return response;
    await discardBody(response);
  }
}

async function fetchHops(options: ResolvedClientOptions, call: HttpCall): Promise<HttpAnswer> {
  const requester = options.requester;
  let target = options.url;
  for (let hop = 0; ; hop++) {
    let response: HttpAnswer;
    try {
      response = await requester.request({
        method: call.method,
        url: target,
        headers: call.headers,
        ...(call.body === undefined ? {} : { body: call.body }),
        signal: call.signal,
      });
    } catch (error) {
      if (call.signal.aborted) throw error;
      throw networkError(call.method, target, error);
    }
    // 0: fetch's opaque redirect (a browser hides the status and Location).
    const status = response.status;
    if (status !== 0 && (status < 300 || status >= 400)) return response;
    await discardBody(response);
    const next = locationOf(response, target);
    const why = refusal(options, next, hop, response.status);
    if (why === undefined && next !== undefined) {
      target = next;
      continue;
    }
    const where = next === undefined ? 'no usable Location' : `Location ${shownUrl(next)}`;
    throw statusError(
      'HTTP_REDIRECT',
      `${call.method} ${shownUrl(target)} answered ${statusLine(response)} (${where}): ${why}`,
      response.status,
    );
  }
}

function locationOf(response: HttpAnswer, base: URL): URL | undefined {
  const location = response.header('location');
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** Why a redirect is not followed, or undefined to follow it. */
function refusal(
  options: ResolvedClientOptions,
  next: URL | undefined,
  hop: number,
  status: number,
): string | undefined {
  if (!options.allowRedirects) {
    return 'redirects are not followed; set url to the final address, or allowRedirects: true';
  }
  if (next === undefined) return 'the redirect has no Location to follow';
  if (!FOLLOWED.has(status)) return 'only 301, 302, 307 and 308 are followed';
  if (next.origin !== options.url.origin) {
    return `allowRedirects follows same-origin hops only (from ${options.url.origin})`;
  }
  if (hop >= MAX_REDIRECTS) return `more than ${MAX_REDIRECTS} redirects`;
  return undefined;
}
