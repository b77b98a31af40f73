/**
 * An `OAuthProvider` for command-line tools (RFC 8252 §7.3): a redirect listener on
 * 127.0.0.1 (an ephemeral port), the authorization URL printed for the user (and opened in the
 * browser when asked), the answer taken from the one request to `/callback` with the right state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpKitError } from '../../errors/index.js';
import { openBrowser } from './browser-opener.js';
import type { AuthorizationRequest, OAuthProvider, OAuthStore } from './provider.js';

export interface LoopbackProviderOptions {
  /** Where the authorization URL is shown (e.g. a line on stderr). */
  show(line: string): void;
  /** Also open the URL in the default browser. */
  open?: boolean;
  /** How long to wait for the redirect (default 5 minutes). */
  timeoutMs?: number;
  /** The port to listen on (default 0: any free one). */
  port?: number;
  store?: OAuthStore;
}

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** The authorization under way: the state it waits for, and what completes it. */
interface Waiting {
  state: string;
  done(url: string): void;
}

export class LoopbackRedirectProvider implements OAuthProvider {
  readonly redirectUrl: string;
  readonly store?: OAuthStore;

  private constructor(
    private readonly server: Server,
    private readonly waiting: { current?: Waiting },
    private readonly options: LoopbackProviderOptions,
  ) {
    this.redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    if (options.store !== undefined) this.store = options.store;
  }

  /** Starts the listener (it answers 404 until an authorization is under way). */
  static async start(options: LoopbackProviderOptions): Promise<LoopbackRedirectProvider> {
    const waiting: { current?: Waiting } = {};
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const current = waiting.current;
      if (
        current === undefined ||
        url.pathname !== '/callback' ||
        url.searchParams.get('state') !== current.state
      ) {
        res.writeHead(404).end();
        return;
      }
      delete waiting.current;
      const failed = url.searchParams.has('error');
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        failed ? 'Sign-in failed; see the terminal.\n' : 'Signed in. You can close this tab.\n',
      );
      current.done(url.href);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    server.unref();
    return new LoopbackRedirectProvider(server, waiting, options);
  }

  authorize(request: AuthorizationRequest): Promise<string> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    this.options.show(`Sign in to continue: open ${request.url.href}`);
    if (this.options.open) openBrowser(request.url.href);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        delete this.waiting.current;
        const seconds = Math.round(timeoutMs / 1000);
        reject(new McpKitError('AUTH_FAILED', `no sign-in answer within ${seconds} s`));
      }, timeoutMs);
      const signal = request.signal;
      const onAbort = () => {
        clearTimeout(timer);
        if (this.waiting.current?.state === request.state) delete this.waiting.current;
        reject(new McpKitError('REQUEST_CANCELLED', 'sign-in cancelled'));
      };
      this.waiting.current = {
        state: request.state,
        done: (url) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(url);
        },
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stops the listener. */
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
