/**
 * An `OAuthStore` in one JSON file readable by its owner only (mode 0600, its folder 0700):
 * what `mcpkit inspect --auth` keeps between runs. The default place is the user's config
 * directory: `$XDG_CONFIG_HOME/mcpkit/auth.json` (else `~/.config/mcpkit/auth.json`; on
 * Windows `%APPDATA%\mcpkit\auth.json`).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OAuthStore } from './provider.js';
import type { StoredAuth } from './types.js';

/** The default file of `FileOAuthStore`. */
export function defaultAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env['XDG_CONFIG_HOME'] ||
    (process.platform === 'win32' && env['APPDATA'] ? env['APPDATA'] : join(homedir(), '.config'));
  return join(base, 'mcpkit', 'auth.json');
}

/** The save under way per file path (see `save`). */
const saving = new Map<string, Promise<void>>();

export class FileOAuthStore implements OAuthStore {
  constructor(readonly path: string = defaultAuthFile()) {}

  private async all(): Promise<Record<string, StoredAuth>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return {};
    }
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null
        ? (value as Record<string, StoredAuth>)
        : {};
    } catch {
      return {};
    }
  }

  async load(resource: string): Promise<StoredAuth | undefined> {
    const all = await this.all();
    return Object.hasOwn(all, resource) ? all[resource] : undefined;
  }

  /**
   * Saves one after the other per file: each reads what the one before wrote, so that saves
   * made at once (several servers signed in to) neither lose an entry nor race on the file.
   */
  async save(resource: string, value: StoredAuth | undefined): Promise<void> {
    const run = (saving.get(this.path) ?? Promise.resolve()).then(() =>
      this.write(resource, value),
    );
    const tail = run.catch(() => undefined);
    saving.set(this.path, tail);
    try {
      await run;
    } finally {
      if (saving.get(this.path) === tail) saving.delete(this.path);
    }
  }

  private async write(resource: string, value: StoredAuth | undefined): Promise<void> {
    const all = await this.all();
    if (value === undefined) delete all[resource];
    else all[resource] = value;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    // Written aside then renamed: a crash never leaves half a file; 0600 from the first byte.
    const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.path);
  }
}
