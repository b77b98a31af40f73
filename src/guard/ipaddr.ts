/**
 * ipaddr.js, loaded once. It is CommonJS with `export =` and no named exports Node can see, and
 * the project compiles without `allowSyntheticDefaultImports`, so it comes in through `require`.
 */
import { createRequire } from 'node:module';
import type { IPv4, IPv6 } from 'ipaddr.js';

export type { IPv4, IPv6 };
export type IpAddress = IPv4 | IPv6;
/** An address and a prefix length, as `parseCIDR` returns them. */
export type Cidr = [IpAddress, number];

export const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof import('ipaddr.js');
