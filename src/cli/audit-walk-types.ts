/** What a walk is given and how it reports, apart from the walk so that its steps can share them. */
import type { McpClient } from '../client/index.js';
import type { ContentContext } from './audit-content.js';
import type { LinkFetch } from './audit-fetch.js';
import type { WalkRecord } from './audit-record.js';
import type { RequestBudget } from './audit-requests.js';
import type { HostArgs } from './host-args.js';

export type WalkProgress = (stage: string, done: number, total: number) => void;

export interface WalkDeps {
  client: McpClient;
  args: HostArgs;
  ctx: ContentContext;
  fetch?: LinkFetch;
  progress?: WalkProgress;
  /** Filled with resource sizes and link outcomes when a report (--html) needs them. */
  record?: WalkRecord;
}

/** What the steps of a walk get: the deps, the progress and the request budget of the run. */
export interface WalkStep extends WalkDeps {
  progress: WalkProgress;
  requests: RequestBudget;
}
