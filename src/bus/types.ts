import type { ServerOptions } from '../server/index.js';

/**
 * The server's change bus and its messages. `mcpkit/server` does not name them all, so they are
 * read off `ServerOptions['bus']`: whatever the server accepts, RedisBus implements.
 */
export type ChangeBus = NonNullable<ServerOptions['bus']>;
export type ChangeEvent = Parameters<ChangeBus['publish']>[0];
/** Which URIs one instance's listeners name (attach, detach, refresh) or a query for them. */
export type InterestMessage = Parameters<NonNullable<ChangeBus['publishInterest']>>[0];
