/**
 * What the two revisions say of each method, in one table: which era has it, the schema `$defs` of
 * its params and result, whether its 2026-07-28 result carries cache hints, which field
 * `Mcp-Name` mirrors, whether it may answer `input_required`, and the field a list's items are
 * in. Server, client, the HTTP header checks, validation and audit all read it here.
 */

/** The `$defs` names of a method's params or result, per era; an era without it has none. */
export interface PerEra {
  readonly modern?: string;
  readonly legacy?: string;
}

export interface MethodFacts {
  /** The params' `$defs` name in each era that has the method. */
  readonly params: PerEra;
  /** The result's `$defs` name in each era (requests only). */
  readonly result?: PerEra;
  /** 2026-07-28 results carry `ttlMs`/`cacheScope`: 'list' from server options, 'read' per resource. */
  readonly cache?: 'list' | 'read';
  /** The params field the `Mcp-Name` header mirrors. */
  readonly nameField?: 'name' | 'uri';
  /** May answer `input_required` (SEP-2322). */
  readonly inputRequired?: true;
  /** A list: the result field that holds its items. */
  readonly listField?: string;
}

const both = (def: string): PerEra => ({ modern: def, legacy: def });

export const METHOD_FACTS: Readonly<Record<string, MethodFacts>> = {
  'server/discover': {
    params: { modern: 'RequestParams' },
    result: { modern: 'DiscoverResult' },
    cache: 'list',
  },
  initialize: {
    params: { legacy: 'InitializeRequestParams' },
    result: { legacy: 'InitializeResult' },
  },
  ping: { params: { legacy: 'RequestParams' }, result: { legacy: 'EmptyResult' } },
  'completion/complete': {
    params: both('CompleteRequestParams'),
    result: both('CompleteResult'),
  },
  'prompts/get': {
    params: both('GetPromptRequestParams'),
    result: both('GetPromptResult'),
    nameField: 'name',
    inputRequired: true,
  },
  'prompts/list': {
    params: both('PaginatedRequestParams'),
    result: both('ListPromptsResult'),
    cache: 'list',
    listField: 'prompts',
  },
  'resources/list': {
    params: both('PaginatedRequestParams'),
    result: both('ListResourcesResult'),
    cache: 'list',
    listField: 'resources',
  },
  'resources/templates/list': {
    params: both('PaginatedRequestParams'),
    result: both('ListResourceTemplatesResult'),
    cache: 'list',
    listField: 'resourceTemplates',
  },
  'resources/read': {
    params: both('ReadResourceRequestParams'),
    result: both('ReadResourceResult'),
    cache: 'read',
    nameField: 'uri',
    inputRequired: true,
  },
  'resources/subscribe': {
    params: { legacy: 'SubscribeRequestParams' },
    result: { legacy: 'EmptyResult' },
  },
  'resources/unsubscribe': {
    params: { legacy: 'UnsubscribeRequestParams' },
    result: { legacy: 'EmptyResult' },
  },
  'logging/setLevel': {
    params: { legacy: 'SetLevelRequestParams' },
    result: { legacy: 'EmptyResult' },
  },
  'subscriptions/listen': {
    params: { modern: 'SubscriptionsListenRequestParams' },
    result: { modern: 'SubscriptionsListenResult' },
  },
  'tools/call': {
    params: both('CallToolRequestParams'),
    result: both('CallToolResult'),
    nameField: 'name',
    inputRequired: true,
  },
  'tools/list': {
    params: both('PaginatedRequestParams'),
    result: both('ListToolsResult'),
    cache: 'list',
    listField: 'tools',
  },
  'notifications/cancelled': { params: both('CancelledNotificationParams') },
  'notifications/initialized': { params: { legacy: 'NotificationParams' } },
  'notifications/roots/list_changed': { params: { legacy: 'NotificationParams' } },
};

/** The facts of `method`; never a member of Object.prototype (the name comes from a peer). */
export function methodFacts(method: string): MethodFacts | undefined {
  return Object.hasOwn(METHOD_FACTS, method) ? METHOD_FACTS[method] : undefined;
}

/** Whether a 2026-07-28 result of `method` carries `ttlMs` and `cacheScope`. */
export function isCacheable(method: string): boolean {
  return methodFacts(method)?.cache !== undefined;
}

/** Whether `method` may answer `input_required`. */
export function mayRequireInput(method: string): boolean {
  return methodFacts(method)?.inputRequired === true;
}

/** The params field `Mcp-Name` mirrors for `method`, if any. */
export function nameFieldOf(method: string): 'name' | 'uri' | undefined {
  return methodFacts(method)?.nameField;
}

/** Whether only 2026-07-28 has `method`. */
export function isModernOnly(method: string): boolean {
  const params = methodFacts(method)?.params;
  return params?.modern !== undefined && params.legacy === undefined;
}

/** The methods' `$defs` names of one era, `params` or `result`, as a lookup table. */
export function defsOf(era: keyof PerEra, part: 'params' | 'result'): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [method, facts] of Object.entries(METHOD_FACTS)) {
    const def = facts[part]?.[era];
    if (def !== undefined) table[method] = def;
  }
  return table;
}

/** The methods that page through a list. */
export type ListMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** The result field that holds the items of `method`'s pages. */
export function listFieldOf(method: ListMethod): string {
  const field = METHOD_FACTS[method]?.listField;
  if (field === undefined) throw new TypeError(`${method} has no list field in METHOD_FACTS`);
  return field;
}
