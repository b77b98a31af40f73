/**
 * The two resource templates a served folder registers on a server: whole files
 * (`file:///{+path}`: list, completion, stat, read) and their parts (`{?offset,length,version}`).
 */
import * as path from 'node:path';
import type { ListedResource, McpServer, ResourceStat } from '../../server/index.js';
import { PARTS_DESCRIPTION, type FileParts } from './file-parts.js';
import type { PathCompletion } from './paths.js';
import type { FileVersion } from './content-baselines.js';
import type { WholeReadOutcome } from './streamed-file.js';
import { withinTime } from './read-timeout.js';
import type { ReadStalls } from './read-stalls.js';
import { readWhole } from './whole-read.js';
import { isStreamedBody } from '../../content/streamed-body.js';
import { STREAM_WINDOW_BYTES } from '../../server/index.js';

/** What the templates need of their provider. */
export interface FileResourceSource {
  /** The served folder, absolute: its name titles the templates. */
  readonly root: string;
  readonly uriTemplate: string;
  readonly parts: FileParts;
  readonly name: string;
  readonly description: string | undefined;
  /** How long a read of one file may take (ms), whole or a part. */
  readonly readTimeoutMs: number;
  /** The reads that outlived that limit and still wait on the file system. */
  readonly stalls: ReadStalls;
  list(): Promise<ListedResource[]>;
  complete(prefix: string): Promise<PathCompletion>;
  stat(relative: string, capBytes?: number): Promise<ResourceStat | undefined>;
  /**
   * A whole file within `limit` wire bytes; `streams`: the writer may send a blob from the file.
   * Without a promise when it was read at once.
   */
  read(
    relative: string,
    limit: number,
    streams: boolean,
  ): WholeReadOutcome | Promise<WholeReadOutcome>;
  /** A read of this path served this version (undefined: not known which); listeners' fingerprints must know. */
  noteRead(relative: string, version: FileVersion | undefined): void;
}

/** A part this small is an answer like any other: counted, never kept waiting for room. */
const SMALL_PART_BYTES = 64 * 1024;
/** The least a large part is cut to when the outbound budget is short (twice the default part). */
const LEAST_PART_BYTES = 2 * 1024 * 1024;
/** Room for a part's envelope and `_meta` over its bytes, when it is cut to the budget. */
const PART_ENVELOPE_BYTES = 16 * 1024;

/** What a part's answer keeps until it is written: its strings, or a streamed body's window. */
function keptBytes(answer: unknown): number {
  const contents = (answer as { contents?: Array<{ text?: unknown; blob?: unknown }> } | undefined)
    ?.contents;
  let bytes = 4096;
  for (const item of contents ?? []) {
    const body = item.text ?? item.blob;
    if (isStreamedBody(body)) bytes += STREAM_WINDOW_BYTES;
    else if (typeof body === 'string') bytes += body.length;
  }
  return bytes;
}

/** Registers both templates on `server`; returns a function that removes them. */
export function registerFileResources(server: McpServer, source: FileResourceSource): () => void {
  const { name, parts } = source;
  const title = path.basename(source.root) || source.root;
  const complete = { path: (value: string) => source.complete(value) };
  const remove = server.resource(
    source.uriTemplate,
    {
      name,
      title: `Files in ${title}`,
      description:
        source.description ??
        'Any file under the served folder, by its path relative to the folder',
      list: () => source.list(),
      complete,
      stat: (_uri, variables, context) =>
        typeof variables['path'] === 'string'
          ? source.stat(variables['path'], context?.capBytes)
          : undefined,
    },
    (uri, variables, ctx) => {
      const relative = variables['path'];
      if (typeof relative !== 'string') return undefined;
      return readWhole(uri, relative, ctx, {
        partsTemplate: parts.template,
        firstPart: (file) => parts.first(file),
        read: (file, limit) => {
          const noted = (outcome: WholeReadOutcome): WholeReadOutcome => {
            if (outcome.kind === 'ok' || outcome.kind === 'streamed') {
              const { size, mtimeMs } = outcome.contents;
              source.noteRead(file, { size, mtimeMs });
            }
            return outcome;
          };
          const refused = source.stalls.refusal(uri, file);
          if (refused) throw refused;
          const read = source.read(file, limit, ctx.streamsBodies === true);
          const outcome = withinTime(read, source.readTimeoutMs, uri, (work) =>
            source.stalls.abandon(file, work),
          );
          return outcome instanceof Promise ? outcome.then(noted) : noted(outcome);
        },
      });
    },
  );
  const removeParts = server.resource(
    parts.template,
    {
      name: `${name}-parts`,
      title: `Parts of files in ${title}`,
      description: PARTS_DESCRIPTION,
      complete,
      stat: (uri, variables) => parts.stat(uri, variables),
    },
    (uri, variables, ctx) => {
      const file = variables['path'];
      if (typeof file === 'string') {
        const refused = source.stalls.refusal(uri, file);
        if (refused) throw refused;
        source.noteRead(file, undefined);
      }
      const streams = ctx.streamsBodies === true;
      const read = (capBytes: number) =>
        withinTime(
          parts.read(uri, variables, capBytes, { streams }),
          source.readTimeoutMs,
          uri,
          (work) => typeof file === 'string' && source.stalls.abandon(file, work),
        );
      // Room in the server's outbound budget first (a wait there is not a slow read). A part
      // holds its length while it is read and cut (a streamed text part is scanned whole, the
      // costly step), then what it keeps: its strings, or a streamed body's window. When the
      // budget is short the part is cut to the room there is, never below LEAST_PART_BYTES
      // (its next URI asks for the length asked again). A small part never waits.
      const most = parts.answerBytes(uri, variables, ctx.capBytes);
      if (most <= SMALL_PART_BYTES) {
        ctx.answer.holdAtLeast(most);
        return read(ctx.capBytes);
      }
      return ctx.answer
        .reserve(LEAST_PART_BYTES, most, ctx.signal)
        .then((granted) =>
          read(
            granted < most ? Math.min(ctx.capBytes, granted + PART_ENVELOPE_BYTES) : ctx.capBytes,
          ),
        )
        .then((answer) => {
          ctx.answer.trimTo(keptBytes(answer));
          return answer;
        });
    },
  );
  return () => {
    removeParts();
    remove();
  };
}
