import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string>;
  bin: Record<string, string>;
  engines: { node: string };
  type: string;
};

// The public surface, pinned name by name (values and types), sorted: any change to the
// package's API shows up here as a diff.
const EXPECTED: Record<string, string[]> = {
  './protocol': [
    'Annotations',
    'AudioContent',
    'Base64Problem',
    'BlobResourceContents',
    'CacheScope',
    'CallToolResult',
    'Classified',
    'ClientCapabilities',
    'CompleteResult',
    'ContentBlock',
    'ERROR_CODES',
    'EmbeddedResource',
    'Era',
    'EraClues',
    'ErrorCode',
    'GetPromptResult',
    'Icon',
    'ImageContent',
    'Implementation',
    'InputRequest',
    'InputRequests',
    'InputRequiredResult',
    'InputResponses',
    'JSONRPCErrorObject',
    'JSONRPCErrorResponse',
    'JSONRPCMessage',
    'JSONRPCNotification',
    'JSONRPCRequest',
    'JSONRPCResponse',
    'JSONRPCResultResponse',
    'LATEST_LEGACY_VERSION',
    'LATEST_PROTOCOL_VERSION',
    'LEGACY_VERSIONS',
    'LoggingLevel',
    'MAX_MESSAGE_BYTES_META',
    'MCPKIT_META_PREFIX',
    'META',
    'MODERN_VERSIONS',
    'MetaObject',
    'ParamsValidator',
    'Prompt',
    'PromptArgument',
    'PromptMessage',
    'ReadResourceResult',
    'RequestId',
    'Resource',
    'ResourceContents',
    'ResourceLink',
    'ResourceTemplate',
    'ResultType',
    'Role',
    'SUPPORTED_VERSIONS',
    'ServerCapabilities',
    'SubscriptionFilter',
    'TextContent',
    'TextResourceContents',
    'Tool',
    'ToolAnnotations',
    'ValidationIssue',
    'base64Length',
    'classify',
    'decodeHeaderValue',
    'encodeHeaderValue',
    'eraOf',
    'errorResponse',
    'findBase64Problem',
    'headerFormOf',
    'isBase64',
    'isErrorResponse',
    'isModernVersion',
    'isUri',
    'notification',
    'requestEra',
    'resultResponse',
    'uriProblem',
    'validateClientResult',
    'validateDef',
    'validateParams',
    'validateServerResult',
    'warmValidators',
  ],
  './errors': [
    'MCPKIT_ERROR_CODES',
    'McpKitError',
    'McpKitErrorCode',
    'ProtocolError',
    'headerMismatch',
    'isMcpKitError',
    'isProtocolError',
    'missingCapability',
    'resourceNotFound',
    'resourceRefused',
    'resultTooLarge',
    'unsupportedVersion',
  ],
  './content': [
    'AnnotationsInput',
    'AssembleOptions',
    'Attachment',
    'AttachmentContent',
    'AttachmentInput',
    'Base64BodySource',
    'BlockOptions',
    'DEFAULT_BINARY_MIME',
    'DEFAULT_BLOCK_BUDGET_BYTES',
    'DEFAULT_RESULT_BUDGET_BYTES',
    'DEFAULT_TEXT_MIME',
    'Decision',
    'DecisionReason',
    'DecisionRecord',
    'EncodeBase64StreamOptions',
    'MimeSource',
    'Policy',
    'PolicyContext',
    'PolicyInput',
    'ResolveMimeTypeInput',
    'ResourceLinkInput',
    'StreamedBody',
    'StreamedBodySource',
    'StreamedChunk',
    'annotations',
    'asBlobString',
    'assembleBlocks',
    'assistantMessage',
    'attach',
    'audio',
    'base64Body',
    'blobContents',
    'blobWireSize',
    'collectBlob',
    'contentWireSize',
    'decide',
    'decodeBase64',
    'embeddedResource',
    'encodeBase64',
    'encodeBase64Stream',
    'image',
    'isAttachment',
    'isIsoDateTime',
    'isStreamedBody',
    'isTextMimeType',
    'jsonStringWireSize',
    'looksLikeText',
    'mimeFromName',
    'parseContentBlock',
    'parseContentBlockLenient',
    'parseContentBlocks',
    'parseResourceContents',
    'parseResourceContentsLenient',
    'repairBase64',
    'resolveMimeType',
    'resourceContentsWireSize',
    'resourceLink',
    'sniffMime',
    'streamedBody',
    'text',
    'textContents',
    'toolError',
    'toolResult',
    'userMessage',
    'utf8Length',
  ],
  './uri': [
    'CheckVariableOptions',
    'MatchOptions',
    'MatchedValues',
    'Operator',
    'SafeMatch',
    'TemplateExpression',
    'TemplateLiteral',
    'TemplatePart',
    'TemplateSyntaxError',
    'TemplateValue',
    'TemplateValues',
    'UriTemplate',
    'VarSpec',
    'VariableKind',
    'checkVariable',
    'coversUri',
    'decodeComponent',
    'isTemplate',
    'matchSafely',
    'parseTemplate',
  ],
  './server': [
    'ARTIFACT_URI_PREFIX',
    'ArtifactLookup',
    'CacheHints',
    'CompleteHandler',
    'ContentOptions',
    'ENVELOPE_RESERVE_BYTES',
    'InputRequiredSignal',
    'LinkStore',
    'ListKind',
    'ListedResource',
    'McpServer',
    'MemoryLinkStore',
    'MemoryLinkStoreOptions',
    'PartialContents',
    'PromptDefinition',
    'PromptHandler',
    'PromptReturn',
    'ReadHandler',
    'ReadReturn',
    'Registered',
    'RequestContext',
    'ResourceDefinition',
    'ResourceStat',
    'ResourceTemplateDefinition',
    'SchemaInput',
    'ServerOptions',
    'StandardSchemaLike',
    'StatHandler',
    'StoredArtifact',
    'ToolDefinition',
    'ToolHandler',
    'ToolReturn',
    'createServer',
    'isInputRequired',
  ],
  './client': [
    'CacheOptions',
    'ClientCache',
    'ClientTransport',
    'ClientTransportKind',
    'ClientTransportSink',
    'ClientWarning',
    'DEFAULT_CACHE_ENTRIES',
    'DEFAULT_DISCOVER_TIMEOUT_MS',
    'DEFAULT_LISTEN_QUEUE',
    'DEFAULT_MAX_INPUT_ROUNDS',
    'DEFAULT_MAX_PAGES',
    'DEFAULT_REQUEST_TIMEOUT_MS',
    'ElicitResult',
    'InputHandlerContext',
    'InputHandlers',
    'ListenNotification',
    'ListenStream',
    'MAX_MESSAGE_BYTES_META',
    'McpClient',
    'McpClientOptions',
    'ParamHeader',
    'Progress',
    'RequestOptions',
    'SendOptions',
    'applyElicitationDefaults',
    'paramHeaderValues',
    'paramHeadersOf',
  ],
  './server/transport': [
    'ChannelFlow',
    'DEFAULT_MAX_LISTEN_QUEUE_BYTES',
    'HandleExtra',
    'LegacySession',
    'Peer',
    'PeerOptions',
    'TransportKind',
  ],
  './stdio': [
    'DEFAULT_CLIENT_MAX_LINE_BYTES',
    'DEFAULT_CLOSE_TIMEOUT_MS',
    'DEFAULT_INHERITED_ENV_VARS',
    'DEFAULT_MAX_LINE_BYTES',
    'DEFAULT_STDERR_BUFFER_BYTES',
    'DEFAULT_STDIO_MAX_RESPONSE_BYTES',
    'LineDecoder',
    'LineDecoderOptions',
    'LineEvent',
    'StdioClientOptions',
    'StdioClientTransport',
    'StdioConnection',
    'StdioOptions',
    'serveStdio',
  ],
  './http': [
    'DEFAULT_CLIENT_MAX_RECONNECTS',
    'DEFAULT_CLIENT_MAX_RESPONSE_BYTES',
    'DEFAULT_HTTP_MAX_RESPONSE_BYTES',
    'DEFAULT_MAX_BODY_BYTES',
    'HttpClientOptions',
    'HttpClientTransport',
    'HttpEndpoint',
    'HttpExchange',
    'HttpOptions',
    'HttpRequesterChoice',
    'HttpResponder',
    'HttpStatusError',
    'LOOPBACK_HOSTS',
    'OriginGuard',
    'OriginGuardOptions',
    'SseSink',
    'WebHandler',
    'checkOrigin',
    'createHttpHandler',
    'createOriginGuard',
    'decodeHeaderValue',
  ],
  './node': [
    'DEFAULT_HEADER_TIMEOUT_MS',
    'NodeHandler',
    'RunningHttpServer',
    'ServeHttpOptions',
    'serveHttp',
    'toNodeHandler',
  ],
  './memory': ['MemoryConnection', 'connectInMemory'],
  './connect': ['ConnectOptions', 'connect'],
  './filesystem': [
    'CacheStats',
    'ContentsOutcome',
    'FileContents',
    'FileInfo',
    'FilesystemProvider',
    'FilesystemProviderOptions',
    'FolderSearchOptions',
    'IndexDiff',
    'IndexProgress',
    'IndexedFile',
    'ProviderFs',
    'ReadOutcome',
    'SEARCH_DEFAULTS',
    'SearchHit',
    'SearchLimits',
    'SearchOptions',
    'SearchResult',
    'SearchStop',
    'ServeFolderOptions',
    'createFilesystemProvider',
    'formatBytes',
    'searchFiles',
    'serveFolder',
    'snippetAround',
    'tooLarge',
  ],
};

function sourceOf(subpath: string): string {
  const target = pkg.exports[subpath] as string;
  return join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/** Every exported name (values and types) of each entry, as the type checker sees them. */
function exportedNames(): Map<string, string[]> {
  const subpaths = Object.keys(EXPECTED);
  const program = ts.createProgram(subpaths.map(sourceOf), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const subpath of subpaths) {
    const file = program.getSourceFile(sourceOf(subpath));
    const symbol = file && checker.getSymbolAtLocation(file);
    out.set(
      subpath,
      symbol
        ? checker
            .getExportsOfModule(symbol)
            .map((s) => s.name)
            .sort()
        : [],
    );
  }
  return out;
}

describe('package.json', () => {
  it('is one ESM package for Node >= 20 with a mcpkit bin', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.engines.node).toBe('>=20');
    expect(pkg.bin).toEqual({ mcpkit: './dist/cli/main.js' });
  });

  it('pins the subpath export map', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(
      [...Object.keys(EXPECTED), './package.json'].sort(),
    );
  });

  it('pins the exact, sorted list of names each subpath exports', () => {
    const actual = exportedNames();
    for (const [subpath, names] of Object.entries(EXPECTED)) {
      expect(existsSync(sourceOf(subpath)), `${subpath} has a source module`).toBe(true);
      expect(actual.get(subpath), `${subpath} exports exactly these names`).toEqual(
        [...names].sort(),
      );
    }
  });

  it.each(Object.keys(EXPECTED))(
    '%s loads, and its runtime values are pinned names',
    async (subpath) => {
      expect(pkg.exports[subpath]).toMatch(/^\.\/dist\/.+\.js$/);
      const mod = (await import(sourceOf(subpath))) as Record<string, unknown>;
      const values = Object.keys(mod);
      expect(values.length).toBeGreaterThan(0);
      for (const name of values)
        expect(EXPECTED[subpath], `${subpath} value ${name}`).toContain(name);
    },
  );
});
