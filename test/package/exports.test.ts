import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string>;
  bin: Record<string, string>;
  engines: { node: string };
  type: string;
};

// The public surface, pinned: a change here is a change to the package's API.
const EXPECTED: Record<string, string[]> = {
  './protocol': [
    'LATEST_PROTOCOL_VERSION',
    'ERROR_CODES',
    'META',
    'classify',
    'validateParams',
    'findBase64Problem',
    'isUri',
  ],
  './errors': ['ProtocolError', 'McpKitError', 'isProtocolError', 'isMcpKitError'],
  './content': [
    'text',
    'resourceLink',
    'embeddedResource',
    'attach',
    'decide',
    'assembleBlocks',
    'encodeBase64',
    'resolveMimeType',
    'contentWireSize',
  ],
  './uri': ['parseTemplate', 'isTemplate', 'matchSafely', 'checkVariable'],
  './server': ['createServer', 'McpServer', 'RequestContext', 'httpStatusOf'],
  './stdio': ['serveStdio', 'LineDecoder', 'DEFAULT_MAX_LINE_BYTES'],
  './http': ['createHttpHandler', 'HttpEndpoint', 'checkOrigin', 'DEFAULT_MAX_BODY_BYTES'],
  './node': ['toNodeHandler', 'serveHttp'],
  './memory': ['connectInMemory'],
  './filesystem': ['serveFolder', 'createFilesystemProvider', 'FilesystemProvider', 'searchFiles'],
};

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

  it.each(Object.entries(EXPECTED))(
    '%s maps to a source module with its public names',
    async (subpath, names) => {
      const target = pkg.exports[subpath] as string;
      expect(target).toMatch(/^\.\/dist\/.+\.js$/);
      const source = join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      expect(existsSync(source)).toBe(true);
      const mod = (await import(source)) as Record<string, unknown>;
      for (const name of names) expect(mod[name], `${subpath} exports ${name}`).toBeDefined();
    },
  );
});
