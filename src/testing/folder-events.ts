// Test support only: not part of the mcpkit package (excluded from the build and not published).
import type { FilesystemProvider } from '../providers/filesystem/filesystem-provider.js';

/** Resolves when the provider's watch reports `path` (subscribe before making the change). */
export function reported(provider: FilesystemProvider, path: string, ms = 5000): Promise<void> {
  let stop = (): void => undefined;
  const seen = new Promise<void>((resolve) => {
    stop = provider.onFolderChange((c) => c.path === path && resolve());
  });
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no event for ${path} within ${ms} ms`)), ms).unref(),
  );
  return Promise.race([seen, deadline]).finally(stop);
}
