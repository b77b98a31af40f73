/**
 * The largest message a client says it accepts (`_meta["dev.mcpkit/maxMessageBytes"]`, or
 * `{ bytes }` under `capabilities.experimental` in a 2025-11-25 `initialize`): results are
 * assembled under the smaller of that and the server's own cap (options.ts, resultCapBytes).
 */
import { MAX_MESSAGE_BYTES_META, type ClientCapabilities } from '../protocol/index.js';

/** Below this an announcement is ignored: no useful answer fits, and it is likely a mistake. */
const MIN_ANNOUNCED_BYTES = 4096;

function valid(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= MIN_ANNOUNCED_BYTES
    ? value
    : undefined;
}

/** What this request (or its session) announced, when it announced anything usable. */
export function announcedMaxBytes(
  meta: Record<string, unknown>,
  capabilities: ClientCapabilities | undefined,
): number | undefined {
  const own = valid(meta[MAX_MESSAGE_BYTES_META]);
  if (own !== undefined) return own;
  const experimental = capabilities?.experimental?.[MAX_MESSAGE_BYTES_META] as
    { bytes?: unknown } | undefined;
  return valid(experimental?.bytes);
}
