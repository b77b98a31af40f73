/**
 * What the test-written third-party servers (SDK v2 in sdk-server.ts, tmcp in tmcp-server.ts)
 * serve, so the client tests can check every byte they read against it.
 */

/** Entries per page wherever the server library pages (resources, tools and prompts). */
export const PAGE_SIZE = 3;

export const TEXT_URI = 'interop://text/hello';
export const TEXT = 'Hello, interop! ünïcödé ✓ \u{1F600}\nsecond line\n';
export const BLOB_URI = 'interop://blob/all-bytes';
export const BLOB_MIME = 'application/octet-stream';
/** Every byte value, up and down again: catches base64, UTF-8 and sign mix-ups. */
export const BLOB_BYTES = Uint8Array.from({ length: 512 }, (_, i) => (i < 256 ? i : 511 - i));
export const BLOB_BASE64 = Buffer.from(BLOB_BYTES).toString('base64');

export const LARGE_URI = 'interop://text/large';
/** ~770 KB of 1- to 4-byte UTF-8: SSE events, chunks and stdio lines split inside characters. */
export const LARGE_TEXT = 'ab€\u{1F600}ü\n'.repeat(60_000);

export const NOTE_COUNT = 6;
export const noteUri = (i: number): string => `interop://note/${i}`;
export const noteText = (i: number): string => `note ${i}: ${'✓'.repeat(i)}`;

export type ServedResource =
  | { uri: string; name: string; mimeType: string; text: string }
  | { uri: string; name: string; mimeType: string; blob: Uint8Array };

/** Every listed resource, in list order (9 of them: 3 pages of 3). */
export const RESOURCES: readonly ServedResource[] = [
  { uri: TEXT_URI, name: 'hello', mimeType: 'text/plain', text: TEXT },
  { uri: BLOB_URI, name: 'all-bytes', mimeType: BLOB_MIME, blob: BLOB_BYTES },
  { uri: LARGE_URI, name: 'large', mimeType: 'text/plain', text: LARGE_TEXT },
  ...Array.from({ length: NOTE_COUNT }, (_, i) => ({
    uri: noteUri(i),
    name: `note-${i}`,
    mimeType: 'text/plain',
    text: noteText(i),
  })),
];

export const DOC_TEMPLATE = 'interop://doc/{name}';
export const DOC_MIME = 'text/markdown';
export const docUri = (name: string): string => `interop://doc/${name}`;
export const docText = (name: string): string =>
  `# ${name}\n\nA document read through a template.\n`;

/** Tools, in list order (4: pages of 3 and 1 where the library pages). */
export const TOOL_NAMES = ['add', 'shout', 'link', 'doc-link'] as const;
export const addText = (a: number, b: number): string => `${a} + ${b} = ${a + b}`;
/** What `link` answers for `{ target }`: a text block and a resource_link to one resource. */
export function linkTarget(target: 'text' | 'blob'): ServedResource {
  return RESOURCES[target === 'text' ? 0 : 1] as ServedResource;
}
export const linkIntro = (uri: string): string => `See ${uri}`;

/** Prompts, in list order (4: pages of 3 and 1 where the library pages). */
export const PROMPT_NAMES = ['greet', 'farewell', 'recap', 'quote'] as const;
export function greetText(who: string, style?: string): string {
  return style === 'formal' ? `Good day, ${who}.` : `Hi ${who}!`;
}
export const farewellText = (who: string): string => `Goodbye, ${who}.`;
export const RECAP_TEXT = 'Summarize the conversation so far.';
export const quoteText = (topic: string): string => `Quote something about ${topic}.`;

/** The line an HTTP test server prints on stdout once it listens. */
export const LISTENING = /^listening (http:\/\/127\.0\.0\.1:\d+\/mcp)$/;
