import { META } from '../../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../../protocol/types.js';
import { frame } from '../listen-hub.js';
import type { MethodEnv, MethodSpec, Params, Result } from './types.js';

/**
 * `subscriptions/listen`: acknowledges the honoured filter, then holds the request open until
 * the client cancels or goes away, or the server ends it; the hub sends the notifications.
 */
async function listen(params: Params, { server, ctx, notify }: MethodEnv): Promise<Result> {
  const id = ctx.requestId;
  const filter = server.listen.honoured((params['notifications'] ?? {}) as SubscriptionFilter, {
    resourceSubscriptions: true,
  });
  notify(frame('notifications/subscriptions/acknowledged', id, { notifications: filter }));
  await new Promise<void>((resolve) => {
    const done = (): void => {
      remove();
      resolve();
    };
    const remove = server.listen.add({ id, filter, notify, end: done });
    if (ctx.signal.aborted) done();
    else ctx.signal.addEventListener('abort', done, { once: true });
  });
  return { _meta: { [META.subscriptionId]: id } };
}

export const listenMethods: Record<string, MethodSpec> = {
  'subscriptions/listen': { run: listen },
};
