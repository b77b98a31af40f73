/** The lines of text that stand for what the host would not see: each names the URI and how to read it. */

export interface NoteSubject {
  uri: string;
  name?: string | undefined;
  mimeType?: string | undefined;
  bytes?: number | undefined;
}

const readCall = (tool: string, uri: string, offset?: number, length?: number): string => {
  const args: Record<string, unknown> = { uri };
  if (offset !== undefined) args['offset'] = offset;
  if (length !== undefined) args['length'] = length;
  return `${tool} ${JSON.stringify(args)}`;
};

function describe(s: NoteSubject): string {
  const facts = [s.mimeType, s.bytes !== undefined ? `${s.bytes} bytes` : undefined].filter(
    (x) => x !== undefined,
  );
  const label = s.name ? `[Resource link: ${s.name}]` : '[Resource]';
  return `${label} ${s.uri}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/**
 * A link the bridge did not read: why, and the call that reads it (none for a link the bridge
 * refuses outright: the model is not invited to ask for what the guard refused).
 */
export function linkNotRead(s: NoteSubject, why: string, tool: string | undefined): string {
  const how = tool === undefined ? '' : ` Read it with ${readCall(tool, s.uri)}.`;
  return `${describe(s)}: not read by the bridge (${why}).${how}`;
}

/** Contents the host would not show (a PDF, audio, an archive): what they are and how to read them. */
export function notShown(s: NoteSubject, why: string, tool: string): string {
  return `${describe(s)}: not shown (${why}). Read it with ${readCall(tool, s.uri)} (a blob comes as base64).`;
}

/** The line before contents the bridge read or decoded for the host. */
export function header(s: NoteSubject, what: string): string {
  return `${describe(s)}, ${what}:\n`;
}

export function sameAsAbove(s: NoteSubject): string {
  return `${describe(s)}: the same resource as above.`;
}

/** One ranged read of the rest of a cut text. */
export function restCall(tool: string, uri: string, offset: number, length: number): string {
  return readCall(tool, uri, offset, length);
}

/** The call that reads a whole resource. */
export function wholeRead(tool: string, uri: string): string {
  return readCall(tool, uri);
}
