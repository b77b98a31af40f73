/** The MCP server `mcpkit serve` builds for a folder, from its command-line options. */
import * as path from 'node:path';
import { createServer, type McpServer, type ServerOptions } from '../server/index.js';
import type { ServeArgs } from './args.js';
import { defined } from './defined.js';
import { packageVersion } from './package-version.js';

export function createFolderServer(
  args: ServeArgs,
  dir: string,
  shared: Partial<ServerOptions> = {},
): McpServer {
  const name = path.basename(dir) || dir;
  return createServer({
    name: 'mcpkit-serve',
    version: packageVersion(),
    title: `mcpkit serve: ${name}`,
    instructions:
      `The files of the folder "${name}", as resources file:///{+path} (paths relative to the folder). ` +
      'Call "search" to find files by name or text, and "read" to get one: small files come embedded, large ones as links ' +
      'to read with resources/read. The prompt "survey" gives an overview of a topic; "review-file" reviews one file.',
    ...(args.pageSize !== undefined ? { pageSize: args.pageSize } : {}),
    ...defined({
      maxDepth: args.maxDepth,
      maxListenQueueBytes: args.maxListenQueueBytes,
      maxListenQueueTotalBytes: args.maxListenQueueTotalBytes,
      maxListens: args.maxListens,
      maxListenUris: args.maxListenUris,
      maxListenPendingUris: args.maxListenPendingUris,
      maxEncodedReadBytes: args.maxEncodedReadBytes,
      maxResponseTotalBytes: args.maxResponseTotalBytes,
    }),
    ...shared,
    content: {
      ...(args.blockBudgetBytes !== undefined ? { blockBudgetBytes: args.blockBudgetBytes } : {}),
      ...(args.resultBudgetBytes !== undefined
        ? { resultBudgetBytes: args.resultBudgetBytes }
        : {}),
    },
  });
}
