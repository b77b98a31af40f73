/**
 * Checks a server's result before the application sees it: repairs what servers in the field
 * commonly omit (with a warning), validates the rest against the official schema of the era
 * (`INVALID_RESULT` naming the schema path), and reads content leniently.
 */
import { McpKitError } from '../errors/index.js';
import { META, validateServerResult } from '../protocol/index.js';
import type { Era } from '../protocol/index.js';
import { parseContentBlockLenient, parseResourceContentsLenient } from '../content/index.js';
import { paramHeadersOf } from './tool-headers.js';
import type { ClientWarning } from './options.js';
import type { Tool } from '../protocol/index.js';
import { shown } from './shown.js';
import { isCacheable, mayRequireInput, methodFacts } from '../protocol/methods.js';

type Obj = Record<string, unknown>;
export type Warn = (warning: ClientWarning) => void;
/** Told of every tool dropped from a list (so that calling it can say why it is refused). */
export type DropTool = (name: string) => void;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function repair(era: Era, method: string, result: Obj, warn: Warn): Obj {
  if (era !== 'modern') return result;
  let out = result;
  const fill = (field: string, value: unknown): void => {
    if (out[field] !== undefined) return;
    if (out === result) out = { ...result };
    out[field] = value;
    warn({
      code: 'REPAIRED_RESULT',
      message: `${method} result had no ${field}; treated as ${JSON.stringify(value)}`,
    });
  };
  fill('resultType', 'complete');
  if (isCacheable(method) && out['resultType'] === 'complete') {
    fill('ttlMs', 0);
    fill('cacheScope', 'private');
  }
  return out;
}

function invalid(method: string, field: string, message: string): McpKitError {
  return new McpKitError('INVALID_RESULT', `${method} answered an invalid result: ${message}`, {
    cause: { field },
  });
}

/** Drops icons whose `src` is not `https:` or `data:` (a host fetching them could be steered). */
function safeIcons(entry: Obj, at: string, warn: Warn): Obj {
  const icons = entry['icons'];
  if (!Array.isArray(icons)) return entry;
  const kept = icons.filter((icon: unknown, i) => {
    const src = isObj(icon) ? icon['src'] : undefined;
    const ok = typeof src === 'string' && /^(https:|data:)/i.test(src);
    if (!ok) {
      warn({
        code: 'DROPPED_ICON',
        message: `${at}.icons[${i}] dropped: src must be an https: or data: URI, got ${shown(src)}`,
      });
    }
    return ok;
  });
  return kept.length === icons.length ? entry : { ...entry, icons: kept };
}

/** The server's own icons (discover `_meta`, initialize `serverInfo`) are held to the same rule. */
function safeServerInfo(result: Obj, warn: Warn): Obj {
  const meta = result['_meta'];
  if (isObj(meta) && isObj(meta[META.serverInfo])) {
    const info = safeIcons(meta[META.serverInfo] as Obj, 'serverInfo', warn);
    if (info !== meta[META.serverInfo])
      return { ...result, _meta: { ...meta, [META.serverInfo]: info } };
  }
  const info = result['serverInfo'];
  if (!isObj(info)) return result;
  const safe = safeIcons(info, 'serverInfo', warn);
  return safe === info ? result : { ...result, serverInfo: safe };
}

function checkList(method: string, result: Obj, warn: Warn, dropTool?: DropTool): Obj {
  const field = methodFacts(method)?.listField as string;
  const entries = result[field] as Obj[];
  const kept: Obj[] = [];
  entries.forEach((raw, i) => {
    const entry = safeIcons(raw, `${field}[${i}]`, warn);
    if (method === 'tools/list') {
      const headers = paramHeadersOf(entry as unknown as Tool);
      if ('problem' in headers) {
        warn({
          code: 'DROPPED_TOOL',
          message: `tool ${shown(entry['name'])} dropped: ${headers.problem}`,
        });
        dropTool?.(String(entry['name']));
        return;
      }
    }
    kept.push(entry);
  });
  return kept.length === entries.length && kept.every((e, i) => e === entries[i])
    ? result
    : { ...result, [field]: kept };
}

const SIMPLE_MIME = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*$/;

/** Schema-valid text with nothing a lenient read could repair: kept as it came (the common case). */
function plainText(value: unknown, kind: 'block' | 'contents'): boolean {
  if (!isObj(value) || typeof value['text'] !== 'string') return false;
  for (const key in value) {
    if (key === 'mimeType') {
      if (typeof value[key] !== 'string' || !SIMPLE_MIME.test(value[key] as string)) return false;
    } else if (key === '_meta') {
      if (!isObj(value[key])) return false;
    } else if (key !== 'text' && key !== (kind === 'block' ? 'type' : 'uri')) return false;
  }
  return kind === 'block' ? value['type'] === 'text' : true;
}

async function lenientBlocks(method: string, blocks: unknown[], at: string, warn: Warn) {
  if (blocks.every((b) => plainText(b, 'block'))) return blocks;
  return Promise.all(
    blocks.map(async (block, i) => {
      try {
        const { block: out, warnings } = await parseContentBlockLenient(block, `${at}[${i}]`);
        for (const message of warnings) warn({ code: 'REPAIRED_CONTENT', message });
        return out;
      } catch (error) {
        throw invalid(method, `${at}[${i}]`, (error as Error).message);
      }
    }),
  );
}

/**
 * The checked result of `method`. `input_required` results are checked as such (only the three
 * methods that may send them).
 */
export function checkResult(
  era: Era,
  method: string,
  raw: unknown,
  warn: Warn,
  dropTool?: DropTool,
): Obj | Promise<Obj> {
  if (!isObj(raw)) throw invalid(method, 'result', 'result must be an object');
  const result = repair(era, method, raw, warn);
  const type = result['resultType'];
  if (
    era === 'modern' &&
    type !== 'complete' &&
    !(type === 'input_required' && mayRequireInput(method))
  ) {
    throw invalid(
      method,
      'result.resultType',
      `result.resultType ${shown(type)} is not one ${method} may answer (schema 2026-07-28)`,
    );
  }
  const kind = era === 'modern' && type === 'input_required' ? 'input_required' : method;
  const issue = validateServerResult(era, kind, result);
  if (issue)
    throw invalid(
      method,
      issue.field,
      `${issue.message} (schema ${era === 'modern' ? '2026-07-28' : '2025-11-25'})`,
    );
  if (kind === 'input_required') return result;
  if (method === 'server/discover' || method === 'initialize') return safeServerInfo(result, warn);
  if (methodFacts(method)?.listField !== undefined)
    return checkList(method, result, warn, dropTool);
  // Synchronous unless content needs a lenient (async: MIME sniffing) read: the common case.
  if (method === 'resources/read') {
    if ((result['contents'] as unknown[]).every((c) => plainText(c, 'contents'))) return result;
  } else if (method === 'tools/call') {
    if ((result['content'] as unknown[]).every((b) => plainText(b, 'block'))) return result;
  }
  return readContent(method, result, warn);
}

async function readContent(method: string, checked: Obj, warn: Warn): Promise<Obj> {
  let result = checked;
  if (method === 'tools/call') {
    result = {
      ...result,
      content: await lenientBlocks(method, result['content'] as unknown[], 'content', warn),
    };
  } else if (method === 'prompts/get') {
    const messages = result['messages'] as Obj[];
    const blocks = await lenientBlocks(
      method,
      messages.map((m) => m['content']),
      'messages',
      warn,
    );
    result = { ...result, messages: messages.map((m, i) => ({ ...m, content: blocks[i] })) };
  } else if (method === 'resources/read') {
    const contents = await Promise.all(
      (result['contents'] as unknown[]).map(async (item, i) => {
        try {
          const { contents: out, warnings } = await parseResourceContentsLenient(
            item,
            `contents[${i}]`,
          );
          for (const message of warnings) warn({ code: 'REPAIRED_CONTENT', message });
          return out;
        } catch (error) {
          throw invalid(method, `contents[${i}]`, (error as Error).message);
        }
      }),
    );
    result = { ...result, contents };
  }
  return result;
}
