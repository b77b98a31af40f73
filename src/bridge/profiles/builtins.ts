/**
 * The built-in profiles. Where a host's behaviour has no public source the conservative choice
 * is made (links and embedded resources assumed not surfaced, blobs limited to images): turning a
 * block into text costs the host nothing, losing it costs the model the content.
 * docs/bridge-profiles.md cites the source of each value.
 */
import type { FullProfile, PromptRules, ReadRules, SurfaceRules } from './types.js';

const KiB = 1024;

/** Text-like types and images: what a link read for the host can usefully become. */
export const DEFAULT_READ_MIME_TYPES: readonly string[] = [
  'text/*',
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-ndjson',
  'application/javascript',
  'image/*',
];

const read = (): ReadRules => ({
  schemes: null,
  mimeTypes: [...DEFAULT_READ_MIME_TYPES],
  uriPatterns: null,
  maxTurnBytes: 1024 * KiB,
  maxTurnTokens: null,
});

const side = (rules: SurfaceRules): SurfaceRules => ({
  ...rules,
  maxResult: rules.maxResult && { ...rules.maxResult },
});
const promptSide = (rules: PromptRules): PromptRules => ({
  ...side(rules),
  nonText: rules.nonText,
});

interface HostPart {
  name: string;
  description: string;
  sources: string[];
  readsResources: boolean;
  tools: SurfaceRules;
  prompts: PromptRules;
}

function profile(p: HostPart): FullProfile {
  return { ...p, read: read(), resizeImages: false };
}

// Factories, not shared objects: a caller may change what it gets without touching the table.
const BUILTINS: Record<string, () => FullProfile> = {
  'claude-code': () =>
    profile({
      name: 'claude-code',
      description:
        'Claude Code: resource_link shown as a line of text, only image blobs reach the model (others are written to disk), results over 50,000 characters or 25,000 tokens spilled to a file',
      sources: [
        'https://github.com/agentclientprotocol/claude-agent-acp/pull/1093',
        'https://github.com/anthropics/claude-code/issues/53453',
        'https://github.com/anthropics/claude-code/issues/72271',
        'https://code.claude.com/docs/en/mcp',
        'https://developers.figma.com/docs/figma-mcp-server/mcp-clients-issues',
      ],
      readsResources: false,
      tools: side({
        resourceLinks: 'text',
        blobs: 'image/*',
        embeddedText: true,
        maxResult: { chars: 50_000, tokens: 25_000 },
      }),
      prompts: promptSide({
        resourceLinks: 'text',
        blobs: 'image/*',
        embeddedText: true,
        maxResult: null,
        nonText: true,
      }),
    }),
  'claude-desktop': () =>
    profile({
      name: 'claude-desktop',
      description:
        'Claude Desktop: resource_link not followed, embedded text reaches the model, non-image blobs rejected',
      sources: [
        'https://github.com/anthropics/claude-ai-mcp/issues/287',
        'https://github.com/anthropics/claude-code/issues/94746',
        'https://github.com/modelcontextprotocol/csharp-sdk/issues/1261',
        'https://github.com/anthropics/claude-ai-mcp/issues/536',
      ],
      readsResources: false,
      tools: side({ resourceLinks: 'drop', blobs: 'image/*', embeddedText: true, maxResult: null }),
      prompts: promptSide({
        resourceLinks: 'drop',
        blobs: 'image/*',
        embeddedText: true,
        maxResult: null,
        nonText: true,
      }),
    }),
  cursor: () =>
    profile({
      name: 'cursor',
      description:
        'Cursor: images from tools reach the model (since 0.49); links and embedded resources not documented as surfaced (conservative)',
      sources: [
        'https://forum.cursor.com/t/support-reading-images-from-mcp-tools/56094',
        'https://cursor.com/docs/mcp',
        'https://github.com/firebolt-db/mcp-server/pull/32',
      ],
      readsResources: false,
      tools: side({
        resourceLinks: 'text',
        blobs: 'image/*',
        embeddedText: false,
        maxResult: null,
      }),
      prompts: promptSide({
        resourceLinks: 'text',
        blobs: 'none',
        embeddedText: false,
        maxResult: null,
        nonText: false,
      }),
    }),
  vscode: () =>
    profile({
      name: 'vscode',
      description:
        'VS Code / GitHub Copilot (and the Copilot CLI): resources only through the UI, never to the model',
      sources: [
        'https://github.com/microsoft/vscode/issues/291004',
        'https://github.com/microsoft/vscode/issues/251870',
        'https://github.com/github/copilot-cli/issues/1518',
      ],
      readsResources: false,
      tools: side({
        resourceLinks: 'drop',
        blobs: 'image/*',
        embeddedText: false,
        maxResult: null,
      }),
      prompts: promptSide({
        resourceLinks: 'drop',
        blobs: 'image/*',
        embeddedText: false,
        maxResult: null,
        nonText: true,
      }),
    }),
  'gemini-cli': () =>
    profile({
      name: 'gemini-cli',
      description:
        'Gemini CLI: tools only (no resources), prompt messages text only (other content rejected)',
      sources: [
        'https://github.com/google-gemini/gemini-cli/issues/15851',
        'https://github.com/google-gemini/gemini-cli/issues/3816',
        'https://github.com/google-gemini/gemini-cli/issues/1459',
      ],
      readsResources: false,
      tools: side({ resourceLinks: 'text', blobs: 'image/*', embeddedText: true, maxResult: null }),
      prompts: promptSide({
        resourceLinks: 'drop',
        blobs: 'none',
        embeddedText: false,
        maxResult: null,
        nonText: false,
      }),
    }),
  goose: () =>
    profile({
      name: 'goose',
      description: 'Goose: blob resources in tool results dropped, even for models that read them',
      sources: [
        'https://github.com/aaif-goose/goose/issues/10342',
        'https://github.com/aaif-goose/goose/issues/5754',
        'https://github.com/aaif-goose/goose/issues/6505',
      ],
      readsResources: false,
      tools: side({ resourceLinks: 'text', blobs: 'image/*', embeddedText: true, maxResult: null }),
      prompts: promptSide({
        resourceLinks: 'text',
        blobs: 'image/*',
        embeddedText: true,
        maxResult: null,
        nonText: true,
      }),
    }),
  'generic-text-only': () =>
    profile({
      name: 'generic-text-only',
      description:
        'Any host that shows the model only text: no resource_link, no blobs but image/*, embedded text kept',
      sources: [],
      readsResources: false,
      tools: side({ resourceLinks: 'drop', blobs: 'image/*', embeddedText: true, maxResult: null }),
      prompts: promptSide({
        resourceLinks: 'drop',
        blobs: 'image/*',
        embeddedText: true,
        maxResult: null,
        nonText: true,
      }),
    }),
  passthrough: () =>
    profile({
      name: 'passthrough',
      description: 'Changes nothing: lists, results and _meta equal the upstream’s',
      sources: [],
      readsResources: true,
      tools: side({ resourceLinks: 'read', blobs: 'all', embeddedText: true, maxResult: null }),
      prompts: promptSide({
        resourceLinks: 'read',
        blobs: 'all',
        embeddedText: true,
        maxResult: null,
        nonText: true,
      }),
    }),
};

export function builtinNames(): string[] {
  return Object.keys(BUILTINS);
}

/** A fresh copy of a built-in profile, or undefined. */
export function builtinProfile(name: string): FullProfile | undefined {
  return Object.hasOwn(BUILTINS, name) ? BUILTINS[name]?.() : undefined;
}
