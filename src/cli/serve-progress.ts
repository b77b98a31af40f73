/** What `serve` reports on stderr while it starts: the first walk, then the first index build. */
import type { IndexProgress, IndexProgressCount } from '../providers/filesystem/index.js';
import type { ProgressReporter } from './progress.js';

/** Reports the folder's first walk (later walks are quick or announced by their changes). */
export function walkProgress(progress: ProgressReporter): (p: IndexProgress) => void {
  const walked = progress.counter({ verb: 'walked' });
  return (p) => {
    if (!p.first) return;
    const state = { count: p.files, bytes: p.bytes };
    if (!p.done) walked.update(state);
    else walked.finish(state, `in ${p.directories.toLocaleString('en-US')} folders`);
  };
}

/** Reports the search index's first build. */
export function indexProgress(
  progress: ProgressReporter,
): (p: IndexProgressCount & { done: boolean }) => void {
  const indexed = progress.counter({ verb: 'indexed' });
  return ({ indexed: count, listed, done }) => {
    if (done) indexed.finish({ count, total: listed }, 'for search');
    else indexed.update({ count, total: listed });
  };
}
