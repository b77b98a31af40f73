/** The client's warnings: the last few kept for `client.warnings`, each also given to a hook. */
import { MAX_WARNINGS_KEPT } from './options.js';
import type { ClientWarning } from './options.js';

export class WarningLog {
  readonly kept: ClientWarning[] = [];
  /** Bound once: passed down as the `warn` of every check, with no closure per request. */
  readonly add = (warning: ClientWarning): void => {
    this.kept.push(warning);
    if (this.kept.length > MAX_WARNINGS_KEPT) this.kept.shift();
    try {
      this.hook()?.(warning);
    } catch {
      // A failing warning hook must not fail the request that warned.
    }
  };

  constructor(private readonly hook: () => ((warning: ClientWarning) => void) | undefined) {}
}
