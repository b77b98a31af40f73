/** A resource or resource template definition as its registry holds it, built at registration. */
import { isUri } from '../protocol/uri-syntax.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { parseTemplate } from '../uri/index.js';
import type { ReadHandler, ResourceTemplateDefinition } from './definitions.js';
import type { ResourceEntry, TemplateEntry } from './entries.js';
import { without } from './tool-entry.js';

export function templateEntry(
  uriTemplate: string,
  definition: ResourceTemplateDefinition,
  read: ReadHandler,
): TemplateEntry {
  const parsed = parseTemplate(uriTemplate);
  const template = {
    uriTemplate,
    ...without(definition, 'list', 'complete', 'stat', 'ttlMs', 'cacheScope', 'size', 'scopes'),
  };
  return { template, parsed, definition, read };
}

export function resourceEntry(
  uri: string,
  definition: ResourceTemplateDefinition,
  read: ReadHandler,
): ResourceEntry {
  if (!isUri(uri)) {
    // A brace that does not pair up: a template's syntax error (an unclosed "{"), not a URI's.
    if (/[{}]/.test(uri)) parseTemplate(uri);
    throw new McpKitError('INVALID_URI', `resource "${uri}" is not an absolute URI (RFC 3986)`);
  }
  const resource = {
    uri,
    ...without(definition, 'list', 'complete', 'stat', 'ttlMs', 'cacheScope', 'scopes'),
  };
  const cache = {
    ...(definition.ttlMs !== undefined ? { ttlMs: definition.ttlMs } : {}),
    ...(definition.cacheScope !== undefined ? { cacheScope: definition.cacheScope } : {}),
  };
  const scopes = definition.scopes?.length ? [...definition.scopes] : undefined;
  return { resource, cache, read, scopes };
}
