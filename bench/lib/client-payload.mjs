// Case D's served folder: one 1 KiB text file (the payload of every case), read as FILE_URI.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEXT_1K } from './payload.mjs';

export const FILE_NAME = 'doc.txt';
export const FILE_URI = `file:///${FILE_NAME}`;

/** A temp folder holding only the 1 KiB file; the caller removes it. */
export function makeFolder() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-client-'));
  writeFileSync(path.join(dir, FILE_NAME), TEXT_1K);
  return dir;
}
