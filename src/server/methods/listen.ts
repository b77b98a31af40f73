import { META } from '../../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../../protocol/types.js';
import type { ProtocolError } from '../../errors/protocol-error.js';
import { listenTokenExpired, tooManyListenUris, tooManyListens } from '../listen-errors.js';
import { frame } from '../listen-stream.js';
import { missingScopes } from '../auth-info.js';
import { onTokenExpiry } from '../token-expiry.js';
import { readScopes } from './scopes.js';
import type { MethodEnv, MethodSpec, Params, Result } from './types.js';

/**
 * `subscriptions/listen`: checks the bounds before anything is sent, acknowledges the honoured
 * filter, then stays open (the hub sends the notifications) until the client cancels or goes
 * away or the server ends it. A stream cut by the hub (client fell behind, bus lost events) or by
 * its token's expiry answers with that error, so that the client listens again and re-reads.
 */
async function listen(params: Params, { core, ctx, notify, flow }: MethodEnv): Promise<Result> {
  const id = ctx.requestId;
  const hub = core.listen;
  const requested = (params['notifications'] ?? {}) as SubscriptionFilter;
  const { maxListens, maxListenUris } = hub.limits;
  const uris = requested.resourceSubscriptions;
  if (Array.isArray(uris) && uris.length > maxListenUris)
    throw tooManyListenUris(uris.length, maxListenUris);
  if (hub.size >= maxListens) throw tooManyListens(maxListens);
  const filter = hub.honoured(requested);
  // Updates of a resource tell what a read would: URIs the caller may not read are left out of
  // the honoured filter (the acknowledgement shows which), and so are the updates of the
  // sub-resources they cover that the caller may not read.
  const auth = ctx.auth;
  const mayRead =
    auth && ((uri: string) => missingScopes(readScopes(core, uri), auth).length === 0);
  if (mayRead && filter.resourceSubscriptions !== undefined)
    filter.resourceSubscriptions = filter.resourceSubscriptions.filter((uri) =>
      mayRead(String(uri)),
    );
  // The acknowledgement is the stream's first frame: the listener (and what its URIs attach)
  // comes after it, so that an attach hook reporting a change at once cannot overtake it.
  notify(frame('notifications/subscriptions/acknowledged', id, { notifications: filter }));
  const cut = await new Promise<ProtocolError | undefined>((resolve) => {
    // A holder, not a const: a cut during add (an attach hook's own change) ends it before add returns.
    const stream: { remove?: () => void; finished?: boolean; expiry?: () => void } = {};
    const done = (error?: ProtocolError): void => {
      if (stream.finished) return;
      stream.finished = true;
      stream.expiry?.();
      stream.remove?.();
      resolve(error);
    };
    stream.remove = hub.add({ id, filter, notify, flow, mayRead, end: done });
    if (ctx.signal.aborted) done();
    else ctx.signal.addEventListener('abort', () => done(), { once: true });
    // The stream holds the caller's authorization: it ends when the token does.
    if (!stream.finished) stream.expiry = onTokenExpiry(ctx.auth, () => done(listenTokenExpired()));
  });
  if (cut) throw cut;
  return { _meta: { [META.subscriptionId]: id } };
}

export const listenMethods: Record<string, MethodSpec> = {
  'subscriptions/listen': { run: listen },
};
