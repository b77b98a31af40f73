/** The text of `mcpkit --help`: every option, with its default. */
export const USAGE = `mcpkit: a resource-first toolkit for the Model Context Protocol

Usage:
  mcpkit serve [DIR] [--stdio | --http [host:]port] [options]
  mcpkit --help | --version

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
                          No result ever goes over the transport cap: --max-line-bytes or
                          --max-body-bytes, less 1k for the envelope.

Limits:
  --max-line-bytes BYTES  stdio only: the longest line accepted, and the cap for one result
                          (default 32m; at least 64k)
  --max-body-bytes BYTES  HTTP only: the largest request body (413 beyond), and the cap for one
                          result (default 4m; at least 64k)
  --page-size N           items per page of resources/list and the other lists (default 100)
  --cache-bytes BYTES     memory for the encoded contents of unchanged files (default 64m;
                          0 turns the cache off)

HTTP only:
  --allow-host HOST       accept this name in Host and Origin as well as the loopback names
                          (DNS-rebinding protection); a name without port (any port matches),
                          an IPv6 address in brackets; repeat for several
  --no-legacy             serve 2026-07-28 only: no initialize, no sessions, no GET stream

Files:
  --no-hard-links         refuse files with more than one hard link (by default a hard link is
                          served like the file it is, even if its other names are outside DIR)

Other:
  --no-watch              do not watch DIR: the listing is refreshed when older than 2 s
  --quiet, -q             no banner and no progress (over HTTP the URL is still printed)
  --help, -h              this help

BYTES is a number of bytes, or a number with a unit (case-insensitive): k or kib = 1024,
m or mib = 1024^2, g or gib = 1024^3; kb = 1000, mb = 1000^2, gb = 1000^3. E.g. 512k, 1.5m.

Exit status: 0 after a clean stop (SIGINT or SIGTERM, or the end of stdin with --stdio),
1 when the server cannot start (e.g. the port is taken), 2 for bad arguments.
`;
