/** The `mcpkit serve` arguments that start the same server over stdio (the pasted configuration). */
import * as path from 'node:path';
import type { ServeArgs } from './args.js';
import { redisStdioArgs } from './serve-redis.js';

/** The arguments that start the same server over stdio, for the pasted configuration. */
export function stdioArgs(args: ServeArgs, dir: string): string[] {
  // -q: a host launches it again and again; its log should not fill with the banner.
  const out = ['serve', dir, '--stdio', '-q'];
  if (args.blockBudgetBytes !== undefined)
    out.push('--block-budget', String(args.blockBudgetBytes));
  if (args.resultBudgetBytes !== undefined)
    out.push('--result-budget', String(args.resultBudgetBytes));
  if (args.pageSize !== undefined) out.push('--page-size', String(args.pageSize));
  if (args.cacheBytes !== undefined) out.push('--cache-bytes', String(args.cacheBytes));
  if (args.partBytes !== undefined) out.push('--part-bytes', String(args.partBytes));
  if (args.maxLineBytes !== undefined) out.push('--max-line-bytes', String(args.maxLineBytes));
  // Outbound defaults differ per transport: only a cap chosen for stdio carries over.
  if (args.maxResponseBytes !== undefined && args.transport.kind === 'stdio')
    out.push('--max-response-bytes', String(args.maxResponseBytes));
  // The limits that mean the same on stdio: the pasted configuration keeps them.
  for (const [flag, value] of [
    ['--max-depth', args.maxDepth],
    ['--max-listen-queue-bytes', args.maxListenQueueBytes],
    ['--max-listen-queue-total-bytes', args.maxListenQueueTotalBytes],
    ['--max-listens', args.maxListens],
    ['--max-listen-uris', args.maxListenUris],
    ['--max-listen-pending-uris', args.maxListenPendingUris],
    ['--max-encoded-read-bytes', args.maxEncodedReadBytes],
    ['--max-response-total-bytes', args.maxResponseTotalBytes],
    ['--max-files', args.maxFiles],
    // A host starts the command from a cwd of its own: a path given relative is made absolute.
    ['--index-dir', args.indexDir === undefined ? undefined : path.resolve(args.indexDir)],
    ['--search-max-file-bytes', args.searchMaxFileBytes],
    [
      '--search-timeout',
      args.searchTimeoutMs === undefined ? undefined : `${args.searchTimeoutMs}ms`,
    ],
    ['--read-timeout', args.readTimeoutMs === undefined ? undefined : `${args.readTimeoutMs}ms`],
    ['--max-stalled-reads', args.maxStalledReads],
    ['--read-workers', args.readWorkers],
    [
      '--watch-debounce',
      args.watchDebounceMs === undefined ? undefined : `${args.watchDebounceMs}ms`,
    ],
  ] as const) {
    if (value !== undefined) out.push(flag, String(value));
  }
  if (!args.watch) out.push('--no-watch');
  if (args.refuseHardLinks) out.push('--no-hard-links');
  if (!args.idleGc) out.push('--no-idle-gc');
  out.push(...redisStdioArgs(args));
  return out;
}
