/**
 * Harness of test/e2e/serve.test.ts: real `mcpkit serve` processes (the built CLI) driven by the
 * official SDK v2 client over stdio and Streamable HTTP, with every message on the wire recorded,
 * plus the fixture folder (budget-sized files, sniffable blobs, sparse giants, a secret outside).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  Client,
  ProtocolError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ContentBlock } from '../../src/protocol/types.js';
import { contentWireSize } from '../../src/content/wire-size.js';
import { formatBytes } from '../../src/providers/filesystem/format.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const EXAMPLE_DIR = join(ROOT, 'examples', 'docs');
export const MODERN = '2026-07-28';
export const KiB = 1024;
export const MiB = 1024 * KiB;
/** What `mcpkit serve` keeps of a transport's cap for the JSON-RPC envelope. */
export const ENVELOPE_RESERVE = 1024;

export type Era = 'modern' | 'legacy';
export type TransportKind = 'stdio' | 'http';
type Json = Record<string, unknown>;

function childEnv(): Record<string, string> {
  return { ...(process.env as Record<string, string>), NODE_OPTIONS: '' };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for the pids to exit; SIGKILLs and returns those still alive after `withinMs`. */
export async function reap(pids: readonly number[], withinMs = 5000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  for (const pid of alive) process.kill(pid, 'SIGKILL');
  return alive;
}

/** One SDK client connected to one serve process, with the wire recorded in both directions. */
export class Session {
  /** Every message the client received after connect, as JSON text (for "no bytes leaked" checks). */
  readonly inbound: string[] = [];
  /** Every message the client sent after connect. */
  readonly outbound: Json[] = [];
  /** Errors the client reported out of band (transport failures, unparsable messages). */
  readonly errors: unknown[] = [];
  /** The stdio server's stderr (banner, progress, warnings). */
  stderr = '';
  /** Where the stdio server's pid comes from (the SDK may spawn it only at the first request). */
  pidSource: (() => number | null) | undefined;
  private closed = false;

  constructor(
    readonly label: string,
    readonly kind: TransportKind,
    readonly era: Era,
    readonly client: Client,
    /** Where the session's server listens (HTTP), for raw requests against the same process. */
    readonly url?: string,
  ) {}

  /** The stdio server's pid, once the SDK transport has spawned it. */
  get pid(): number | undefined {
    return this.pidSource?.() ?? undefined;
  }

  /** Taps the transport the client installed its handlers on. */
  tap(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.inbound.push(JSON.stringify(message));
      deliver?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.outbound.push(message as unknown as Json);
      return send(message, options);
    };
  }

  /** Whether a request with this method and these params went out verbatim. */
  sent(method: string, match: (params: Json) => boolean): boolean {
    return this.outbound.some((m) => m['method'] === method && match((m['params'] ?? {}) as Json));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}

function newClient(era: Era): Client {
  const info = { name: 'mcpkit-serve-e2e', version: '0.0.1' };
  return era === 'legacy'
    ? new Client(info)
    : new Client(info, { versionNegotiation: { mode: { pin: MODERN } } });
}

async function connect(
  session: Session,
  transport: Transport,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  session.client.onerror = (error) => session.errors.push(error);
  await session.client.connect(transport, { timeout: timeoutMs });
  const era = session.client.getProtocolEra();
  if (era !== session.era) throw new Error(`${what}: connected in era ${era}, not ${session.era}`);
  session.tap(transport);
}

/** `node dist/cli/main.js serve ...args --stdio`, spawned by the SDK's StdioClientTransport. */
export async function connectStdio(label: string, era: Era, args: string[]): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args, '--stdio'],
    cwd: ROOT,
    env: childEnv(),
    stderr: 'pipe',
  });
  const session = new Session(label, 'stdio', era, newClient(era));
  transport.stderr?.on('data', (chunk: Buffer | string) => (session.stderr += String(chunk)));
  session.pidSource = () => transport.pid;
  await connect(session, transport, label);
  return session;
}

/** An SDK client on a running `serve --http` process. */
export async function connectHttp(label: string, era: Era, url: string): Promise<Session> {
  const session = new Session(label, 'http', era, newClient(era), url);
  await connect(session, new StreamableHTTPClientTransport(new URL(url)), label);
  return session;
}

/** `node dist/cli/main.js serve ...args --http 127.0.0.1:0`; the URL is its first stdout line. */
export class HttpServe {
  url = '';
  stdout = '';
  stderr = '';

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
  }

  static async start(args: string[]): Promise<HttpServe> {
    const served = new HttpServe(
      spawn(process.execPath, [CLI, 'serve', ...args, '--http', '127.0.0.1:0'], {
        cwd: ROOT,
        env: childEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const { child } = served;
    served.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`serve --http printed no URL in 15 s; stderr: ${served.stderr}`)),
        15_000,
      );
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`serve --http exited early (${code}); stderr: ${served.stderr}`)),
      );
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        if (/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(line)) resolve(line);
        else reject(new Error(`unexpected first stdout line: ${JSON.stringify(line)}`));
      });
    }).catch(async (error: unknown) => {
      await stopChild(child);
      throw error;
    });
    return served;
  }

  stop(): Promise<{ code: number | null; signal: string | null }> {
    return stopChild(this.child);
  }
}

/**
 * Processes this test process started that run the CLI and are still alive (Linux /proc; empty
 * elsewhere): catches servers the SDK spawned, its version-probe siblings included.
 */
export async function liveServeChildren(): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z') continue;
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(CLI)) found.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return found;
}

/** SIGTERM, then SIGKILL after 3 s; resolves with how the process ended. */
export async function stopChild(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
  return { code: child.exitCode, signal: child.signalCode };
}

/** Awaits `fn`, which must reject with a ProtocolError (a JSON-RPC error from the server). */
export async function protocolError(fn: () => Promise<unknown>): Promise<ProtocolError> {
  const error = await fn().then(
    (value) =>
      new Error(`expected a ProtocolError, got a result: ${JSON.stringify(value).slice(0, 300)}`),
    (e: unknown) => e,
  );
  if (!(error instanceof ProtocolError)) throw error;
  return error;
}

/** The JSON-RPC answer to one raw 2026-07-28 POST. */
export interface RawAnswer {
  status: number;
  text: string;
  body: { result?: Json; error?: { code: number; message: string; data?: unknown } } | undefined;
}

/**
 * POSTs a 2026-07-28 `resources/read` whose body is `before + uriBytes + after` byte for byte, for
 * URIs the SDK client cannot send (e.g. invalid UTF-8). `Mcp-Name` carries the URI as the server
 * will decode it (U+FFFD for invalid bytes), base64-encoded when it is not plain ASCII.
 */
export async function rawModernRead(url: string, uriBytes: Buffer, id: number): Promise<RawAnswer> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'mcpkit-serve-e2e-raw', version: '0.0.1' },
  };
  const before = Buffer.from(
    `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{"_meta":${JSON.stringify(meta)},"uri":"`,
  );
  const after = Buffer.from('"}}');
  const decoded = new TextDecoder().decode(uriBytes);
  const name = /^[\x21-\x7e]*$/.test(decoded)
    ? decoded
    : `=?base64?${Buffer.from(decoded, 'utf8').toString('base64')}?=`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'resources/read',
      'mcp-name': name,
    },
    body: Buffer.concat([before, uriBytes, after]),
  });
  const text = await res.text();
  let body: RawAnswer['body'];
  try {
    body = JSON.parse(text) as RawAnswer['body'];
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body };
}

// ---------------------------------------------------------------------------------------------
// Sizes on the wire

/** UTF-8 length of JSON.stringify of an embedded resource block, as the policy measures it. */
export function embeddedWireSize(resource: {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
}): number {
  return contentWireSize({ type: 'resource', resource } as ContentBlock);
}

/** The byte length of a value as JSON on the wire (what the client received, re-serialized). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * Text whose embedded block `{type:'resource',resource:{uri,mimeType,text}}` takes exactly
 * `target` bytes on the wire. It opens with characters JSON escapes or UTF-8 widens, so that the
 * count is not just the length.
 */
export function textOfWireSize(uri: string, mimeType: string, target: number): string {
  const prefix = 'Budget probe: é, ü, "quotes", a \\ backslash,\ta tab and\nnew lines\n';
  const base = embeddedWireSize({ uri, mimeType, text: prefix });
  if (base > target) throw new Error(`target ${target} is below the ${base}-byte minimum`);
  const text = prefix + 'a'.repeat(target - base);
  const got = embeddedWireSize({ uri, mimeType, text });
  if (got !== target) throw new Error(`text sized ${got}, wanted ${target}`);
  return text;
}

/**
 * Text for a `text/plain` file `name` whose content in the read tool's result,
 * `[summary, block]`, takes exactly `target` bytes: the tool fits its one-line summary
 * ("name (text/plain, size), embedded below.") with the embedded block, and the array adds 3.
 */
export function readToolTextOfWireSize(name: string, target: number): string {
  let shown = target;
  for (let tries = 0; tries < 4; tries++) {
    const summary = `${name} (text/plain, ${formatBytes(shown)}), embedded below.`;
    const block = target - jsonBytes({ type: 'text', text: summary }) - 3;
    const text = textOfWireSize(`file:///${name}`, 'text/plain', block);
    const bytes = Buffer.byteLength(text);
    if (formatBytes(bytes) === formatBytes(shown)) return text;
    shown = bytes;
  }
  throw new Error(`cannot size ${name} to ${target} bytes`);
}

/**
 * A file name (stem, padding, ext) and bytes whose embedded blob block takes exactly `target`
 * bytes: base64 grows 4 bytes at a time, so the name's length is adjusted to land on the target.
 * The same bytes under a name one character longer take `target + 1`.
 */
export function blobOfWireSize(
  stem: string,
  ext: string,
  mimeType: string,
  target: number,
  header: Uint8Array,
): { name: string; overName: string; bytes: Buffer } {
  for (let pad = 0; pad < 4; pad++) {
    const name = `${stem}${'_'.repeat(pad)}${ext}`;
    const shell = embeddedWireSize({ uri: `file:///${name}`, mimeType, blob: '' });
    const rest = target - shell;
    if (rest <= 0 || rest % 4 !== 0) continue;
    const bytes = Buffer.alloc((rest / 4) * 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    Buffer.from(header).copy(bytes, 0);
    const got = embeddedWireSize({
      uri: `file:///${name}`,
      mimeType,
      blob: bytes.toString('base64'),
    });
    if (got !== target) throw new Error(`blob sized ${got}, wanted ${target}`);
    return { name, overName: `${stem}${'_'.repeat(pad + 1)}${ext}`, bytes };
  }
  throw new Error(`no name length lands a blob on ${target} bytes`);
}

// ---------------------------------------------------------------------------------------------
// The fixture folder

export const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Fixture {
  /** Parent of the served folder; holds the secret. */
  base: string;
  /** The served folder. */
  dir: string;
  /** Contents of every file that must never be served. */
  marker: string;
  blockBudget: number;
  resultBudget: number;
  text: { at: string; over: string; atContent: string; overContent: string };
  blob: { at: string; over: string; bytes: Buffer };
  result: { at: string; over: string; atContent: string; overContent: string };
  /** 64 MiB, sparse. */
  huge: string;
  /** 8 GiB, sparse: a read of it could not even be buffered, so a quick link proves none happened. */
  giant: string;
  /** 6 MiB of patterned bytes: over the HTTP default cap, under stdio's. */
  six: string;
  sixBytes: Buffer;
}

export const HUGE_BYTES = 64 * MiB;
export const GIANT_BYTES = 8 * 1024 * MiB;
export const SIX_BYTES = 6 * MiB;

/**
 * base/
 *   secret.txt, served-evil/secret.txt      the marker, outside the served folder
 *   served/                                 the served folder
 *     notes/inside.md, a/inside.txt         plain files
 *     link-out -> base, link-secret -> base/secret.txt, link-rel.txt -> ../secret.txt,
 *     link-etc -> /etc, link-prefix -> base/served-evil     symlinks pointing out
 *     link-inside.txt -> notes/inside.md    a symlink that stays inside (served)
 *     .env, node_modules/leak.txt           hidden: the marker, never served
 *     text-at.md / text-over.md, <blob at>.png / <blob over>.png   exactly at / 1 byte over the block budget
 *     result-at.txt / result-over.txt       exactly at / 1 byte over the result budget, as the read
 *                                           tool's whole content (its summary line included)
 *     picture.data (PNG), doc.bin (PDF), scan (PNG, no extension), mystery (unknown bytes)
 *     huge.bin (64 MiB sparse), giant.bin (8 GiB sparse), six.dat (6 MiB)
 */
export async function makeFixture(blockBudget: number, resultBudget: number): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), 'mcpkit-serve-e2e-'));
  const dir = join(base, 'served');
  const marker = `MCPKIT-E2E-SECRET-${Math.random().toString(16).slice(2, 12)}-DO-NOT-SERVE`;
  await mkdir(join(dir, 'notes'), { recursive: true });
  await mkdir(join(dir, 'a'), { recursive: true });
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  await mkdir(join(base, 'served-evil'), { recursive: true });
  await writeFile(join(base, 'secret.txt'), marker);
  await writeFile(join(base, 'served-evil', 'secret.txt'), marker);
  await writeFile(join(dir, '.env'), `TOKEN=${marker}\n`);
  await writeFile(join(dir, 'node_modules', 'leak.txt'), marker);
  await writeFile(
    join(dir, 'notes', 'inside.md'),
    '# Inside\n\nA note inside the served folder.\n',
  );
  await writeFile(join(dir, 'a', 'inside.txt'), 'inside a/\n');
  await symlink(base, join(dir, 'link-out'));
  await symlink(join(base, 'secret.txt'), join(dir, 'link-secret'));
  await symlink('../secret.txt', join(dir, 'link-rel.txt'));
  await symlink('/etc', join(dir, 'link-etc'));
  await symlink(join(base, 'served-evil'), join(dir, 'link-prefix'));
  await symlink('notes/inside.md', join(dir, 'link-inside.txt'));

  const textAt = textOfWireSize('file:///text-at.md', 'text/markdown', blockBudget);
  const textOver = textOfWireSize('file:///text-over.md', 'text/markdown', blockBudget + 1);
  await writeFile(join(dir, 'text-at.md'), textAt);
  await writeFile(join(dir, 'text-over.md'), textOver);
  const blob = blobOfWireSize('blob-at', '.png', 'image/png', blockBudget, PNG_SIGNATURE);
  await writeFile(join(dir, blob.name), blob.bytes);
  await writeFile(join(dir, blob.overName), blob.bytes);
  const resultAt = readToolTextOfWireSize('result-at.txt', resultBudget);
  const resultOver = readToolTextOfWireSize('result-over.txt', resultBudget + 1);
  await writeFile(join(dir, 'result-at.txt'), resultAt);
  await writeFile(join(dir, 'result-over.txt'), resultOver);

  await copyFile(join(EXAMPLE_DIR, 'images', 'mcpkit.png'), join(dir, 'picture.data'));
  await copyFile(join(EXAMPLE_DIR, 'papers', 'overview.pdf'), join(dir, 'doc.bin'));
  await copyFile(join(EXAMPLE_DIR, 'images', 'mcpkit.png'), join(dir, 'scan'));
  await writeFile(
    join(dir, 'mystery'),
    Buffer.from([0, 0x13, 0x37, 0xfe, 0xed, 0, 1, 2, 3, 0x80, 0x81, 0xff, 0, 9]),
  );

  await writeFile(join(dir, 'huge.bin'), '');
  await truncate(join(dir, 'huge.bin'), HUGE_BYTES);
  await writeFile(join(dir, 'giant.bin'), '');
  await truncate(join(dir, 'giant.bin'), GIANT_BYTES);
  const sixBytes = Buffer.alloc(SIX_BYTES);
  for (let i = 0; i < sixBytes.length; i++) sixBytes[i] = (i * 131 + (i >> 12)) & 0xff;
  Buffer.from('MCPKIT-E2E-BLOB\0').copy(sixBytes, 0);
  await writeFile(join(dir, 'six.dat'), sixBytes);

  return {
    base,
    dir,
    marker,
    blockBudget,
    resultBudget,
    text: { at: 'text-at.md', over: 'text-over.md', atContent: textAt, overContent: textOver },
    blob: { at: blob.name, over: blob.overName, bytes: blob.bytes },
    result: {
      at: 'result-at.txt',
      over: 'result-over.txt',
      atContent: resultAt,
      overContent: resultOver,
    },
    huge: 'huge.bin',
    giant: 'giant.bin',
    six: 'six.dat',
    sixBytes,
  };
}

/** `serve EXAMPLE_DIR --http` protected by the authorization server `issuer` (`more`: flags). */
export function serveWithIssuer(issuer: string, ...more: string[]): Promise<HttpServe> {
  return HttpServe.start([EXAMPLE_DIR, '-q', '--auth-issuer', issuer, ...more]);
}
