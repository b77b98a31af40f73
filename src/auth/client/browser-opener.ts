/**
 * Opening the authorization URL in the default browser, without a shell: on Windows `cmd /c
 * start` would split the URL at `&` (a hostile authorization_endpoint could run commands), so
 * the URL goes to `rundll32 url.dll,FileProtocolHandler` as one argument.
 */
import { spawn } from 'node:child_process';

/** The command and argv that open `url` on `platform`; undefined for a URL that is not http(s). */
export function openerCommand(
  platform: NodeJS.Platform,
  url: string,
): [command: string, args: string[]] | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  // The serialized form: percent-encodes what a raw string could smuggle (spaces, quotes).
  const href = parsed.href;
  if (platform === 'darwin') return ['open', [href]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', href]];
  return ['xdg-open', [href]];
}

/** Opens `url` with the platform's opener; failures are ignored (the URL was printed). */
export function openBrowser(url: string): void {
  const command = openerCommand(process.platform, url);
  if (command === undefined) return;
  try {
    const child = spawn(command[0], command[1], {
      stdio: 'ignore',
      detached: true,
      shell: false,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // printed anyway
  }
}
