/** What to do about each finding code: the "fix" column of the HTML report (`--html`). */
import type { FindingCode } from './audit-findings.js';

/** One sentence or two per code; a new code does not compile without its fix. */
export const FINDING_FIXES: Record<FindingCode, string> = {
  'blob-invalid-base64':
    'Send blob as standard base64 (RFC 4648: A-Z, a-z, 0-9, + and /, padded with =), e.g. Buffer.from(bytes).toString("base64").',
  'link-unresolved':
    'Serve the linked URI (list it as a resource, or add a resource template that matches it), or stop emitting the link.',
  'link-read-failed':
    'Make resources/read of the linked URI succeed (a listed resource or template covers it, so hosts will try), or stop linking to it.',
  'result-over-cap':
    'Keep every answer under 10 MiB: offer a large resource in parts through a template with {?offset,length} (as mcpkit serve does), or link it instead of embedding it.',
  'missing-result-type': 'Add resultType: "complete" to every 2026-07-28 result.',
  'missing-cache-hints':
    'Add ttlMs and cacheScope to every cacheable 2026-07-28 result (server/discover, the lists, resources/read).',
  'template-invalid':
    'Fix the uriTemplate so that it parses as RFC 6570 (balanced braces, known operators, valid variable names).',
  'uri-invalid':
    'Use absolute RFC 3986 URIs: a scheme, and spaces, controls and other characters outside the URI grammar percent-encoded.',
  'schema-violation':
    'Make the answer match the official schema of its era at the JSON pointer shown (the message names the field).',
  'request-failed':
    "Make the request succeed for what the server lists (a listed resource reads, a listed prompt answers with the arguments its completions offer), or stop listing it; the server's stderr usually says why.",
  'unknown-tool':
    'Call a tool the server lists (the message names the ones it offers), or register the tool the host expects.',
  'pagination-loop': 'Give every page a new nextCursor, and leave nextCursor out of the last page.',
  'list-too-large':
    'Page the list with nextCursor, keep cursors short and lists to what a host needs; raise --max-list-items, --max-list-bytes or --max-cursor-bytes if the size is meant.',
  unreachable:
    'Check the URL or the command line, that the server starts (its stderr), and sign-in: --auth, --token-env or --token-file for a protected server.',
  'walk-stopped':
    'Answer every request within --timeout (or raise --timeout): a request the server cannot serve gets a JSON-RPC error, not silence.',
  'blob-missing-mime':
    'Give every blob a mimeType (application/octet-stream when it is not known).',
  'blob-noncanonical-base64':
    'Send base64 without line breaks or whitespace, padded with =: some clients refuse anything else.',
  'mime-mismatch':
    'Declare the mimeType the bytes are (the audit sniffs their first bytes), or send the bytes the type says.',
  'embed-over-budget':
    'Link a large resource (resource_link) instead of embedding it, or raise --block-budget if your hosts take large blocks.',
  'legacy-not-found-code':
    'On 2026-07-28, answer an unknown resource with -32602 and data.uri (-32002 is the 2025-11-25 code).',
  'size-mismatch':
    'List the size a read gives (decoded bytes), or leave size out when it is not known.',
  'client-warning':
    'Write only JSON-RPC messages on stdout (logs go to stderr), well formed: the message says what the client repaired or skipped.',
  'name-reused': 'Give each tool, prompt and resource a name of its own within its list.',
  'link-not-checked':
    'Nothing to fix when the host is meant to fetch the link; --fetch-urls (and a larger --budget) checks it.',
  'budget-spent':
    'Raise --budget, --max-requests or --max-requests-per-kind to walk the rest: the report is not complete until then.',
  'tool-error':
    'Not a protocol problem: the tool reported an error for these arguments; check the --call arguments or the tool.',
};
