/** @module mcpkit/filesystem */
export { FilesystemProvider, createFilesystemProvider } from './filesystem-provider.js';
export { tooLarge } from './wire.js';
export type { FilesystemProviderOptions, FileInfo } from './filesystem-provider.js';
export type { ContentsOutcome } from './file-reader.js';
export { serveFolder } from './folder-server.js';
export type { ServeFolderOptions } from './folder-server.js';
export { snippetAround } from './search-text.js';
export { FolderSearch, INDEXED_SEARCH_DEFAULTS } from './folder-search.js';
export type { IndexedSearchOptions, IndexProgressCount } from './folder-search.js';
export type { SearchHit, SearchResult } from './folder-text.js';
export type { SearchArtifact, SearchArtifactMatch } from './search-tool.js';
export type { IndexedFile, IndexProgress, IndexDiff } from './file-index.js';
export type { FileContents, ReadOutcome } from './read-file.js';
export type { ProviderFs } from './fs-types.js';
export type { CacheStats } from './content-cache.js';
export { formatBytes } from './format.js';
export { DEFAULT_WATCH_DEBOUNCE_MS } from './folder-freshness.js';
export type { FolderChange, FolderChangeListener } from './folder-changes.js';
