import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildImportGraph,
  checkMatrix,
  findCycles,
  formatCycle,
  isCheckedFile,
  readSourceTree,
  type ImportMatrix,
} from './import-graph.js';

import layers from './layers.json' with { type: 'json' };

// Which top-level folder under src/ may import which; eslint.config.js reads the same file.
const MATRIX = layers.matrix as ImportMatrix;

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('src import architecture', () => {
  const graph = buildImportGraph(readSourceTree(SRC));

  it('sees the whole source tree (so the checks below cannot pass vacuously)', () => {
    expect(graph.files.filter(isCheckedFile).length).toBeGreaterThan(50);
    expect(graph.edges.filter((edge) => isCheckedFile(edge.from)).length).toBeGreaterThan(100);
  });

  it('resolves every relative import of a source file to a file under src/', () => {
    const unresolved = graph.unresolved
      .filter(({ from }) => isCheckedFile(from))
      .map(({ from, specifier }) => `src/${from}: '${specifier}'`);
    expect(unresolved, 'relative imports that name no file under src/').toEqual([]);
  });

  it('has no import cycles (type-only imports included)', () => {
    const cycles = findCycles(graph);
    if (cycles.length > 0) {
      expect.fail(
        `${cycles.length} import cycle(s) in src/:\n\n${cycles.map(formatCycle).join('\n\n')}`,
      );
    }
  });

  it('reaches the server from outside only through its two entries', () => {
    const entries = new Set(['server/index.ts', 'server/transport.ts']);
    const reaching = graph.edges
      .filter(({ from }) => isCheckedFile(from) && !from.startsWith('server/'))
      .filter(({ to }) => to.startsWith('server/') && !entries.has(to))
      .map(({ from, to }) => `src/${from} imports src/${to}`);
    expect(reaching, 'use server/index.ts (authors) or server/transport.ts (transports)').toEqual(
      [],
    );
  });

  it('only imports across folders as the matrix allows', () => {
    const problems = checkMatrix(graph, MATRIX);
    if (problems.length > 0) {
      expect.fail(`${problems.length} import(s) break the folder matrix:\n${problems.join('\n')}`);
    }
  });
});

describe('the import checker', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-imports-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fixture: Record<string, string> = {
    'high/one.ts': [
      "// import { fake } from '../low/fake.js'; (a comment is not an import)",
      "import { two } from './two.js';",
      "import { gone } from './gone.js';",
      'export const text = "import \'../low/fake.js\'";',
    ].join('\n'),
    'high/two.ts': [
      'import type {',
      '  Three,',
      "} from '../low/three.js';",
      "export type Four = import('../low/four.js').Four;",
    ].join('\n'),
    'low/three.ts': [
      "export * from '../high/one.js';",
      "import './util/index.js';",
      "import data from './data.json' with { type: 'json' };",
      "export const load = () => import('./four.js');",
    ].join('\n'),
    'low/four.ts': 'export type Four = string;',
    'low/util/index.ts': 'export {};',
    'low/data.json': '[]',
    'low/three.test.ts': "import '../high/one.js';",
    'testing/helper.ts': "import '../high/one.js';",
    'extra/new.ts': 'export {};',
  };
  for (const [path, text] of Object.entries(fixture)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const graph = buildImportGraph(readSourceTree(root));

  it('finds every kind of import edge and nothing in comments or strings', () => {
    expect(graph.edges.map(({ from, to }) => `${from} -> ${to}`).sort()).toEqual([
      'high/one.ts -> high/two.ts',
      'high/two.ts -> low/four.ts',
      'high/two.ts -> low/three.ts',
      'low/three.test.ts -> high/one.ts',
      'low/three.ts -> high/one.ts',
      'low/three.ts -> low/data.json',
      'low/three.ts -> low/four.ts',
      'low/three.ts -> low/util/index.ts',
      'testing/helper.ts -> high/one.ts',
    ]);
    expect(graph.unresolved).toEqual([{ from: 'high/one.ts', specifier: './gone.js' }]);
  });

  it('reports a cycle that runs through an import type', () => {
    expect(findCycles(graph)).toEqual([
      {
        members: ['high/one.ts', 'high/two.ts', 'low/three.ts'],
        examples: [['high/one.ts', 'high/two.ts', 'low/three.ts', 'high/one.ts']],
      },
    ]);
  });

  it('reports matrix violations and unknown folders, but not tests or testing/', () => {
    expect(checkMatrix(graph, { high: ['low'], low: [] })).toEqual([
      'src/extra is not in the import matrix: add it to test/architecture/layers.json',
      'src/low/three.ts imports src/high/one.ts (low may import: nothing)',
    ]);
  });
});
