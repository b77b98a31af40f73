import { META } from '../../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../../protocol/types.js';
import type { ProtocolError } from '../../errors/protocol-error.js';
import { frame } from '../listen-hub.js';
import { DEFAULT_MAX_LISTEN_QUEUE_BYTES } from '../options.js';
import type { MethodEnv, MethodSpec, Params, Result } from './types.js';

/**
 * `subscriptions/listen`: acknowledges the honoured filter, then holds the request open until
 * the client cancels or goes away, or the server ends it; the hub sends the notifications. A
 * stream the hub cut for falling behind (maxListenQueueBytes) answers with the hub's error.
 */
async function listen(params: Params, { core, ctx, notify, flow }: MethodEnv): Promise<Result> {
  const id = ctx.requestId;
  const filter = core.listen.honoured((params['notifications'] ?? {}) as SubscriptionFilter, {
    resourceSubscriptions: true,
  });
  notify(frame('notifications/subscriptions/acknowledged', id, { notifications: filter }));
  const { maxListenQueueBytes, onWarning } = core.options;
  const cut = await new Promise<ProtocolError | undefined>((resolve) => {
    const done = (error?: ProtocolError): void => {
      remove();
      resolve(error);
    };
    const remove = core.listen.add({
      id,
      filter,
      notify,
      flow,
      end: done,
      maxQueueBytes: maxListenQueueBytes ?? DEFAULT_MAX_LISTEN_QUEUE_BYTES,
      warn: onWarning ?? ((message) => console.warn(message)),
    });
    if (ctx.signal.aborted) done();
    else ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  if (cut) throw cut;
  return { _meta: { [META.subscriptionId]: id } };
}

export const listenMethods: Record<string, MethodSpec> = {
  'subscriptions/listen': { modernOnly: true, run: listen },
};
