/**
 * `mcpkit/guard`: the SSRF guard, for hosts that fetch the `http(s)` links a server hands them and
 * for server authors whose resources are backed by URLs. Node-side (DNS and sockets).
 *
 * It refuses loopback, private, link-local, CGNAT, unique-local, multicast, unspecified,
 * broadcast, reserved, cloud-metadata and IPv4-mapped/-compatible IPv6 addresses, whatever
 * spelling the URL uses (`127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`, `localhost.`), unless the
 * allow-list names them. It resolves each host name once, checks every address, and connects to
 * the address it checked; every redirect hop is checked again; size and time are capped.
 *
 * @example
 * import { createGuard } from 'mcpkit/guard';
 *
 * const guard = createGuard({ allow: ['10.0.0.0/8'], maxBytes: 4 << 20, timeoutMs: 10_000 });
 * const answer = await guard.fetch('https://docs.example.com/guide.md');
 * console.log(answer.status, answer.mimeType, answer.bytes.length, answer.redirects);
 *
 * @module mcpkit/guard
 */
export { classifyAddress, type BlockReason } from './address.js';
export { checkAddress } from './allow-list.js';
export { blockedHost } from './check-target.js';
export { GuardError, type GuardErrorDetails } from './guard-error.js';
export {
  createGuard,
  guardedFetch,
  type Guard,
  type GuardCheck,
  type GuardFetchExtra,
  type GuardedResponse,
} from './guarded-fetch.js';
export type { GuardLookup, GuardOptions, LookupAddress } from './options.js';
