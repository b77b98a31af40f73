// Temporary served folders: created under the OS temp dir, removed by the case's cleanup.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made = new Set();

export function tempDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `mcpkit-stress-${label}-`));
  made.add(dir);
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  made.delete(dir);
}

/** Synchronous, for exit paths: removes every folder this run made and still holds. */
export function removeAllDirs() {
  for (const dir of made) removeDir(dir);
}

/** Writes `files` (path -> text) under `root`, `batch` at a time. */
export async function writeFiles(root, files, batch = 256) {
  const entries = Object.entries(files);
  const dirs = new Set(entries.map(([path]) => dirname(join(root, path))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  for (let i = 0; i < entries.length; i += batch) {
    await Promise.all(
      entries.slice(i, i + batch).map(([path, text]) => writeFile(join(root, path), text)),
    );
  }
}

/** The probe's file: small, known text. */
export const PROBE_FILE = 'probe.txt';
export const PROBE_TEXT = 'the well-behaved client reads this line\n';
