export { FilesystemProvider, createFilesystemProvider } from './filesystem-provider.js';
export { tooLarge } from './wire.js';
export type {
  FilesystemProviderOptions,
  FileInfo,
  ContentsOutcome,
} from './filesystem-provider.js';
export { serveFolder } from './folder-server.js';
export type { ServeFolderOptions } from './folder-server.js';
export { searchFiles, snippetAround } from './search.js';
export type { SearchOptions, SearchHit, SearchResult } from './search.js';
export type { IndexedFile, IndexProgress, IndexDiff } from './file-index.js';
export type { FileContents, ReadOutcome } from './read-file.js';
export type { ProviderFs } from './fs-types.js';
export type { CacheStats } from './content-cache.js';
export { formatBytes } from './format.js';
