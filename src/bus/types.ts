import type { ServerOptions } from '../server/index.js';

/**
 * The server's change bus and its events. `mcpkit/server` does not name them yet, so they are
 * read off `ServerOptions['bus']`: whatever the server accepts, RedisBus implements.
 */
export type ChangeBus = NonNullable<ServerOptions['bus']>;
export type ChangeEvent = Parameters<ChangeBus['publish']>[0];
