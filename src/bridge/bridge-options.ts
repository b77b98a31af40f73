/** What the bridge's downstream server is given (createBridge's options, the CLI's flags). */
import type { McpClient } from '../client/index.js';
import type { PdfExtractOptions } from './pdf/pdf-text.js';
import type { HostProfile } from './profiles/index.js';

type Obj = Record<string, unknown>;

export interface BridgeOptions {
  profile: HostProfile;
  /** `--max-link-bytes`: the most one resolved link brings (default 256 KiB). */
  maxLinkBytes?: number;
  /** `--max-result-chars`: the most text one result carries (default: the profile's). */
  maxResultChars?: number;
  /** Each upstream request's time (default 60 s): a hung upstream fails the host's request then. */
  requestTimeoutMs?: number;
  /** Most bytes one `read_resource` call returns (default 4 MiB). */
  maxReadBytes?: number;
  /**
   * The rest of results cut to the host's limit is kept for `read_resource` (when the bridge adds
   * it) up to these bounds, oldest evicted first (default 8 MiB, 32 texts; 0 keeps none).
   */
  maxSpillBytes?: number;
  maxSpillCount?: number;
  /** `--extract-pdf`: the text of PDFs the host would not see, within these limits (off by default). */
  pdf?: PdfExtractOptions;
  /** Each decision of a rewritten result (`_meta["dev.mcpkit/decisions"]`), for `--log`. */
  onDecision?: (entry: Obj) => void;
  onWarning?: (message: string) => void;
  /**
   * Declare elicitation, sampling and roots to the upstream and forward its input requests to a
   * 2025-11-25 host that declared them, or as `input_required` to a 2026-07-28 host (default
   * false: the upstream sees a client without them, so that it lists what a plain client sees).
   */
  forwardInput?: boolean;
  /** Most calls of 2026-07-28 hosts waiting for their input at once (default 32). */
  maxParkedInputs?: number;
  /** How long such a call waits for the host's retry (default 60 s): then it is cancelled. */
  inputTtlMs?: number;
  /** The upstream session for a 2026-07-28 host's input capabilities (createBridge's lanes). */
  laneFor?: (capabilities: Obj) => Promise<McpClient | undefined>;
}
