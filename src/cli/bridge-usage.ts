/** The text of `mcpkit bridge --help`. */
export const BRIDGE_USAGE = `mcpkit bridge: put any MCP server in front of any host, rewritten for what the host shows

Usage:
  mcpkit bridge [--profile NAME|FILE] [options] -- COMMAND ARGS...   (stdio upstream)
  mcpkit bridge --url URL [--token-env VAR | --token-file FILE | --auth] [options]
  mcpkit bridge --explain-profile NAME
  mcpkit bridge --print-config HOST [--name NAME] [options] -- COMMAND ARGS...

The host launches the bridge in the upstream server's place. The bridge mirrors the upstream's
tools, prompts, resources, templates, completions, logging and change notifications (names,
descriptions, schemas and _meta unchanged), in 2026-07-28 or 2025-11-25 on each side
independently, and rewrites tool results and prompt messages for what the host surfaces.
Everything after "--" is the upstream's command line, run as it is (relative paths resolve from
the directory the host starts the bridge in). See docs/bridge.md.

Profile:
  --profile NAME|FILE     what the host surfaces (default passthrough: nothing is changed);
                          a built-in name, or a JSON file overriding a profile's fields
  --explain-profile NAME  print the profile as JSON (a file --profile accepts back) and exit
  When the profile says the host does not read resources (readsResources false), the bridge
  adds two tools: read_resource (uri, optional offset/length in bytes: the resource's exact
  text, a blob's base64, or the base64 of the byte range) and list_resources (cursor, query).
  A name the upstream already uses gets the prefix bridge_ (bridge_read_resource, ...).

Rewriting limits:
  --max-link-bytes BYTES  most bytes one link resolved upstream brings (default 262144, 256k)
  --max-result-chars N    most text one result carries, the bridge's notes included
                          (default: the profile's)
  --max-read-bytes BYTES  most bytes one read_resource call returns (default 4m)
  --log FILE              append each rewriting decision (naming its URI) as a JSON line
  --extract-pdf           give PDFs the host would not see (embedded, or linked and read
                          within --pdf-max-bytes when the link declares its size or the
                          upstream is --url) as the text of their first pages, extracted
                          with pdf.js (pdfjs-dist 5) in a worker thread; the text is bounded by
                          --max-link-bytes, and a PDF that fails is named as without the flag
  --pdf-max-pages N       pages extracted from the start of each PDF (default 50)
  --pdf-max-bytes BYTES   largest PDF parsed (default 8m); a larger one is named
  --pdf-timeout SECONDS   time the PDFs of one result may take together, waiting for the
                          bridge's one extraction at a time included (default 10, at most
                          3600); the worker is also ended when the bridge's RSS grows by
                          128 MiB after pdf.js has loaded

Upstream:
  --url URL               an http(s) upstream (instead of a command after "--")
  --token-env VAR         bearer token from this environment variable (with --url)
  --token-file FILE       bearer token from this file's first line (with --url)
  --auth [--open]         sign in interactively (OAuth) when the upstream asks (with --url)
  --era auto|2026-07-28|2025-11-25
                          the upstream's protocol era (default auto: probed)
  --timeout SECONDS       each upstream request (default 30): a hung upstream gives the host a
                          clear error then
  --max-list-items N, --max-list-bytes BYTES, --max-cursor-bytes BYTES
                          bounds of the lists the bridge reads itself (as for inspect)
  --forward-input         declare elicitation, sampling and roots to the upstream and forward
                          its requests for them to the host whose request caused them, when it
                          declared them: as requests to a 2025-11-25 host, as an input_required
                          result to a 2026-07-28 host (default off: the upstream sees a client
                          without them, so it lists what a plain client sees)
  --input-ttl SECONDS     how long a 2026-07-28 host's call to a 2025-11-25 upstream waits for
                          the host's retry with its input (default 60); then it is cancelled
  --max-parked-inputs N   most such calls waiting at once (default 32); one more fails clearly
  An upstream command that exits is started again at once (with backoff after repeated
  failures) and the host is told that the lists changed.

Downstream (to the host):
  --stdio                 JSON-RPC lines on stdin/stdout (default)
  --http [host:]port      Streamable HTTP at http://host:port/mcp (default 127.0.0.1:3334)
  --auth-issuer URL ...   protect it with OAuth (the options of mcpkit serve); a non-loopback
  --insecure-no-auth      address needs --auth-issuer or --insecure-no-auth
  --allow-host NAME       a further Host header accepted (HTTP)

Host configuration:
  --print-config HOST     print the JSON entry for HOST's MCP configuration file that runs this
                          bridge (same options, --profile HOST unless given) in front of the
                          command after "--", with absolute paths; HOST is a built-in profile
                          name: claude-desktop, claude-code, cursor, vscode, gemini-cli, goose, ...
  --name NAME             the server's name in that entry (default: from the command or URL)
`;
