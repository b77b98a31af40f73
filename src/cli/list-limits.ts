/** The list limits of `mcpkit inspect` and `mcpkit audit`, as their flags set and name them. */
import type { ListLimitNames, ListLimits } from '../client/lists.js';
import type { HostArgs } from './host-args.js';

/** Pages one list may take before its cursor is taken to never end (no flag). */
export const MAX_LIST_PAGES = 1000;

/** How the CLI's messages name the list limits: by their flags. */
export const CLI_LIST_LIMIT_NAMES: ListLimitNames = {
  maxPages: '',
  maxItems: '--max-list-items',
  maxBytes: '--max-list-bytes',
  maxCursorBytes: '--max-cursor-bytes',
};

export function cliListLimits(args: HostArgs): ListLimits {
  return {
    maxPages: MAX_LIST_PAGES,
    maxItems: args.maxListItems,
    maxBytes: args.maxListBytes,
    maxCursorBytes: args.maxCursorBytes,
  };
}
