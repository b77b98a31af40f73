/** The text of `mcpkit --help`: every option, with its default. */
export const USAGE = `mcpkit: a resource-first toolkit for the Model Context Protocol

Usage:
  mcpkit bridge [--profile NAME|FILE] [options] -- COMMAND ARGS...
  mcpkit bridge --url URL [options]
  mcpkit serve [DIR] [--stdio | --http [host:]port] [options]
  mcpkit inspect URL [VERB ...] [options]
  mcpkit inspect [VERB ...] URL [options]
  mcpkit inspect [VERB ...] [options] -- COMMAND ARGS...
  mcpkit audit URL [options]
  mcpkit audit [options] -- COMMAND ARGS...
  mcpkit --help | --version

'mcpkit bridge --help', 'mcpkit inspect --help' and 'mcpkit audit --help' describe those commands.
mcpkit bridge fronts any MCP server for a host, rewriting results for what the host surfaces.

mcpkit serve serves the files under DIR (default: the example folder shipped with mcpkit) as
MCP resources, file:///{+path} with the path relative to DIR, with the tools "search" and
"read" and the prompts "review-file" and "survey". Dot-files, dot-directories and node_modules
are neither listed nor read.

Transport (one of):
  --http [host:]port      Streamable HTTP at http://host:port/mcp, for 2026-07-28 and 2025-11-25
                          clients (default; 127.0.0.1:3333; port 0 picks a free port)
  --stdio                 JSON-RPC lines on stdin/stdout; stdout carries protocol messages only,
                          the banner and progress go to stderr

Embed-or-link policy (a result embeds a file when it fits, and links it otherwise):
  --block-budget BYTES    most one embedded file may take on the wire, base64 included
                          (default 1m)
  --result-budget BYTES   most all embedded files of one result may take (default 4m)
                          No result ever goes over the outbound cap (--max-response-bytes),
                          less 1k for the envelope.

Caps: inbound caps protect this server, the outbound cap models what the client can take:
  --max-response-bytes BYTES
                          outbound: the largest message sent; a result that cannot fit is
                          answered with -32603 naming the parts template to read it in parts
                          (default 10m over stdio, newline included: the official SDK client's
                          buffer; 32m over HTTP; at least 64k)
  --max-line-bytes BYTES  stdio only, inbound: the longest line accepted from the client
                          (default 32m; at least 64k)
  --max-body-bytes BYTES  HTTP only, inbound: the largest request body, 413 beyond (default 4m;
                          at least 64k)

Limits:
  --page-size N           items per page of resources/list and the other lists (default 100)
  --part-bytes BYTES      the length of a part when a part URI gives none, and of the first
                          part links point at (default 1m; at least 1k)
  --cache-bytes BYTES     memory for the encoded contents of unchanged files (default 64m;
                          0 turns the cache off)
  --read-timeout TIME     longest one read of a file may wait on the disk (a hung network
                          mount): then the request gets an error naming the file and the limit;
                          other requests never wait for it (default 30s)
  --max-stalled-reads N   reads past --read-timeout that may still wait on the disk at once
                          (each holds a worker or a thread); past it, and for a file whose
                          read still waits, reads are refused at once (default 16: the read
                          workers beyond 4, at least half of UV_THREADPOOL_SIZE)
  --read-workers N        worker threads that read uncached files, at most: 4 start, more
                          only while slow files hold them over 250 ms (default 20; 0 reads
                          on libuv's thread pool instead)
  --max-depth N           deepest nesting of objects and arrays below a request's params; a
                          deeper request gets -32602 naming the limit, unread (default 64)
  --max-listen-queue-bytes BYTES
                          what one subscriptions/listen stream may queue while its client does
                          not read (repeated updates are coalesced); past it the stream is
                          ended with an error and a log line (default 4m)
  --max-listen-queue-total-bytes BYTES
                          what all listen streams may queue together for clients that do not
                          read; past it the one that holds the most is ended as above, then the
                          next (default 16m)
  --max-listens N         listen streams open at once in this process; one more is refused with
                          -32603 (default 10000)
  --max-listen-uris N     URIs one listen (or one 2025-11-25 session) may subscribe to; more is
                          -32602 (default 1024); a folder's URI covers the files under it
  --max-listen-pending-uris N
                          distinct updated URIs one listen stream holds while its client does
                          not read; one more ends the stream, so that the client listens again
                          and re-reads (default 1024)
  --max-encoded-read-bytes BYTES
                          whole-file answers kept encoded, per file version, to write again
                          as they are; least recently used out first; 0 keeps none (default 32m)
  --max-response-total-bytes BYTES
                          outbound, over all connections: bytes of answers being produced or
                          waiting to be written. An answer held in memory counts until the
                          client took it; a part read counts its length while it is read and
                          cut, then what it keeps (128k for a part streamed from its file over
                          HTTP). When it is short a large part is cut to the room there is
                          (never below 2m) or waits for room, at most 5s, then gets -32603
                          "Server busy" naming this option; other answers never wait
                          (default 64m; at least 64k)

Search (the "search" tool and the "survey" prompt): an index of every file, built in a
worker from the start and kept up to date from the watch. Every word must match (in the path
or the text, ignoring case); a word also matches longer words it starts (zebra: zebrafish) and
identifier parts ("parse args" and parseargs: parseArgs; "snake case": snake_case); "a quoted
phrase" matches exactly; the tool's "path" argument is a glob (src/**/*.ts). Ranked by BM25,
name matches first. While the index is being built, a search answers from what is indexed
and says how much that is.
  --search-max-file-bytes BYTES  larger text files are found by name only (default 8m)
  --index-dir DIR         save the index in DIR and start from it on the next run: only files
                          whose size, mtime, inode or ctime changed are read again. Saved 5s
                          after a change, at most every 30s, and at exit (waits up to 5s)
                          (default none)
  --search-timeout TIME   time one search may take (default 5s)

stdio only:
  --max-in-flight N       requests handled at once; later ones wait, unread while the queue is
                          full (default 64)
  --max-queued-bytes BYTES  unsent answers (or waiting requests) past which stdin is not read
                          until the client reads stdout (default 16m)

HTTP only:
  --allow-host HOST       accept this name in Host and Origin as well as the loopback names
                          (DNS-rebinding protection); a name without port (any port matches),
                          an IPv6 address in brackets; repeat for several
  --no-legacy             serve 2026-07-28 only: no initialize, no sessions, no GET stream
  --body-timeout TIME     a request body that sends nothing for this long gets 408 (default 10s)
  --header-timeout TIME   most time to receive a request's headers (default 15s)
  --max-body-total-bytes BYTES
                          request bodies held at once, over all connections; beyond it a new
                          body gets 503 with retry-after, unread (default 64m)
  --write-timeout TIME    a client that takes none of its answer for this long is dropped (its
                          connection closed, its share of --max-response-total-bytes given
                          back); large answers and parts are written as the client reads them
                          (default 30s)
  --max-sessions N        2025-11-25 sessions at once; when full, the least recently used idle
                          one is closed for a new one (default 10000)
  --session-idle TIME     an idle 2025-11-25 session is closed after this long (default 30m)

Authorization (HTTP only; see "Protecting a server" in the README):
  --auth-issuer URL       protect the endpoint with OAuth: every request needs a bearer token
                          issued by this authorization server (JWT access tokens checked
                          against its keys, found from its metadata, fetched on first use)
  --auth-audience URL     the audience tokens must carry, and the resource URL served in
                          /.well-known/oauth-protected-resource (default: the endpoint's URL
                          as bound, http://HOST:PORT/mcp; required on 0.0.0.0 and ::)
  --auth-jwks URL         the issuer's JWKS URL, instead of its metadata's jwks_uri
  --auth-introspect URL   opaque tokens: check them at this introspection endpoint (RFC 7662),
                          with --auth-client-id ID and --auth-client-secret-env VAR (the name
                          of the environment variable holding the secret)
  --auth-scopes S1,S2     scopes every request needs
  --insecure-no-auth      serve a non-loopback address without authorization (refused without
                          it: anyone who can reach the address could use the server)

Several instances (one Redis; see "Running several instances" in the README):
  --redis URL             share change events, links and the signing secret with every instance
                          on this Redis and prefix: redis://[user:password@]host[:port][/db], or
                          rediss://... for TLS (the password is never printed). Unreachable at
                          start-up: exit 1. The secret is MCPKIT_SECRET when set (safer: whoever
                          reads Redis could forge requestState and artifact URIs), else it is
                          created in Redis once and read by every instance
  --redis-prefix PREFIX   prefix of every Redis key and channel (default mcpkit:)
  --redis-ca FILE         a CA certificate (PEM) to trust for rediss://

Files:
  --max-files N           most files listed (default 1000000): the first N in path order; past
                          it a warning on stderr says so, and the others are still read by path
  --no-hard-links         refuse files with more than one hard link (by default a hard link is
                          served like the file it is, even if its other names are outside DIR)

Other:
  --no-watch              do not watch DIR: this instance announces no change it would see
                          (neither resources/updated nor list_changed); with --redis it relays
                          those other instances see, and walks the listing again after one; it
                          is also walked again when older than 2 s
  --watch-debounce TIME   how long DIR must be quiet before its changes are announced; a file
                          written without pause is announced every ten times this
                          (default 100ms)
  --no-idle-gc            do not give memory back when idle (by default, once the server is idle
                          after a burst and its heap grew by 16m, one full collection runs)
  --quiet, -q             no banner and no progress (over HTTP the URL is still printed)
  --help, -h              this help

BYTES is a number of bytes, or a number with a unit (case-insensitive): k or kib = 1024,
m or mib = 1024^2, g or gib = 1024^3; kb = 1000, mb = 1000^2, gb = 1000^3. E.g. 512k, 1.5m.
TIME is a number with a unit: ms, s, m or h (a bare number is seconds). E.g. 500ms, 10s, 2m.

Exit status: 0 after a clean stop (SIGINT or SIGTERM, or the end of stdin with --stdio),
1 when the server cannot start (e.g. the port is taken), 2 for bad arguments.
`;

/** Options that `inspect` and `audit` share. */
const HOST_OPTIONS = `Target: an http:// or https:// URL of a Streamable HTTP endpoint (never subject to the SSRF
guard), or, after "--", the command line of a stdio server (run without a shell, with this
environment).

Options:
  --json                  one JSON object on stdout instead of the human form
  --era auto|2026-07-28|2025-11-25
                          the protocol era (default auto: server/discover, else initialize)
  --timeout SECONDS       each request, and each guarded fetch with its whole redirect chain
                          (default 30; 500ms and 2m work too)
  --budget BYTES          the most read in one run, checked against a listed size before a read
                          and against the bytes after it (default 4MiB)
  --fetch-urls            fetch http(s) links with the host's own SSRF-guarded client instead of
                          only through resources/read on the server (loopback, private,
                          link-local, metadata and similar addresses are refused)
  --allow-address HOST|IP|CIDR
                          exempt from the guard when the URL's host as written or the address it
                          resolves to matches; repeat for several
  --auth                  sign in (OAuth) when the server asks: a redirect listener on
                          127.0.0.1, the authorization URL printed on stderr; tokens kept in
                          mcpkit/auth.json under the user's config directory (mode 0600)
  --open                  with --auth: open the authorization URL in the browser too
  --token-env VAR         send the bearer token in this environment variable
  --token-file FILE       send the bearer token in this file (its first line)
                          (without one of these, a server that requires authorization ends the
                          run at once, exit 1; tokens are never printed)
  --verbose               show a stdio server's stderr (its last 20 lines) even when nothing
                          failed; with a failure it is always shown
  --max-list-items N      entries of one list over all its pages (default 50000)
  --max-list-bytes BYTES  bytes of those entries together, as JSON (default 64MiB)
  --max-cursor-bytes BYTES
                          the largest nextCursor followed (default 64KiB); past any of the
                          three: LIST_TOO_LARGE naming the flag
  --help, -h              this help

BYTES is a number of bytes, or a number with a unit: k or kib = 1024, m or mib = 1024^2,
g or gib = 1024^3; kb, mb, gb = powers of 1000. E.g. 512KiB, 4MiB.
`;

/** The text of `mcpkit inspect --help`. */
export const INSPECT_USAGE = `mcpkit inspect: look at what an MCP server offers, reads, prompts and tool calls

Usage:
  mcpkit inspect URL [VERB ...] [options]
  mcpkit inspect [VERB ...] URL [options]
  mcpkit inspect [VERB ...] [options] -- COMMAND ARGS...

Verbs:
  (none)                  the discover (or initialize) answer, then every list, all pages
  read URI                resources/read of one URI
  prompt NAME [key=value ...]
                          prompts/get with those arguments
  call TOOL [JSON]        tools/call with a JSON object of arguments

Links (resource_link blocks) in a prompt or tool result:
  --resolve none|ask|all  none (default): no link is read; ask: y/n per link on the terminal
                          (every link refused without a terminal); all: every link, within the
                          budget. Links are read through resources/read on their server.

${HOST_OPTIONS}
Control characters and terminal escapes in anything the server sent are shown escaped.

Exit status: 0 when the command got a result (a tool result with isError included), 1 when the
server answered a JSON-RPC error or could not be reached, 2 for bad arguments.
`;

/** The text of `mcpkit audit --help`. */
export const AUDIT_USAGE = `mcpkit audit: walk an MCP server and report what a host would trip over

Usage:
  mcpkit audit URL [options]
  mcpkit audit [options] -- COMMAND ARGS...

The walk: the discover (or initialize) answer; every list, all pages; a read of each listed
resource within --budget (a large one that a parts template covers: its first part); each
prompt, its required arguments filled from completion/complete (the next values offered when
one is refused; or a placeholder); the tools named by --call; every resource_link met, read
through resources/read. Each answer is judged as the server sent it, against the official schema
of its era. Tools are never called unless named. 3 requests in a row that time out stop the walk
(walk-stopped).

Audit options:
  --call NAME=JSON        call this tool with these arguments (a JSON object); repeatable
  --block-budget BYTES    an embedded block (resource, image or audio) larger than this on the
                          wire is flagged (default 1MiB)
  --html FILE             also write the report as one self-contained HTML page (findings with
                          their fix, resource sizes against the caps, every link checked),
                          atomically; --html - writes it to stdout instead of the usual report
  --max-requests N        requests of the walk in all (default 20000)
  --max-requests-per-kind N
                          requests of one kind: a method (resources/read, completion/complete,
                          prompts/get, a list's pages…), link reads apart (default 5000); and
                          at most 32 completed arguments per prompt. What a spent budget skips
                          is told in budget-spent findings, and the report is then not
                          complete ("complete": false in --json)

${HOST_OPTIONS}
Findings (severity: code):
  error:   blob-invalid-base64, link-unresolved, link-read-failed, result-over-cap (over stdio),
           missing-result-type, missing-cache-hints, template-invalid, uri-invalid,
           schema-violation, request-failed, pagination-loop, list-too-large, unreachable,
           walk-stopped
  warning: result-over-cap (over HTTP, or a listed size implying one), blob-missing-mime,
           blob-noncanonical-base64, mime-mismatch, embed-over-budget, legacy-not-found-code,
           size-mismatch, client-warning, request-failed (a prompt got with guessed arguments),
           unknown-tool (a --call naming a tool the server does not list)
  info:    name-reused, link-not-checked, budget-spent, tool-error

Exit status: 0 when no error-level finding was made, 1 when one was (a server that cannot be
reached is the finding "unreachable") or the --html FILE could not be written, 2 for bad
arguments (--html FILE in a folder that does not exist among them). Progress goes to stderr.
`;
