import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';

// The layer table shared with test/architecture/imports.test.ts (which also catches cycles).
const LAYERS = JSON.parse(
  readFileSync(new URL('./test/architecture/layers.json', import.meta.url), 'utf8'),
);
const IMPORT_MATRIX = Object.fromEntries(
  Object.entries(LAYERS.matrix).filter(([, allowed]) => allowed !== 'anything'),
);
const ALL_FOLDERS = [...Object.keys(LAYERS.matrix), 'testing'];

// The I/O-free core must not reach for Node built-ins; transports, providers and the CLI may.
const IO_FREE = new Set(LAYERS.ioFree);
const NODE_BUILTINS = [
  {
    group: ['node:*'],
    message: 'The core is I/O-free: Node built-ins belong in transports, providers or the CLI.',
  },
  {
    group: [
      'fs',
      'path',
      'http',
      'https',
      'net',
      'child_process',
      'stream',
      'os',
      'crypto',
      'buffer',
    ],
    message: 'The core is I/O-free.',
  },
];

// One block per folder. Patterns are anchored relative paths: a file one, two or three folders
// below src/<folder>/ reaches another top-level folder through '../', '../../' or '../../../', so
// './x.js' and './sub/x.js' never match. (A subfolder named like a top-level folder, say
// src/transports/server/, would be flagged from its siblings; the architecture test is exact.)
function matrixBlock(folder, allowed) {
  const forbidden = ALL_FOLDERS.filter((other) => other !== folder && !allowed.includes(other));
  const group = forbidden.flatMap((other) =>
    ['../', '../../', '../../../'].map((up) => `${up}${other}/**`),
  );
  const mayImport = allowed.length === 0 ? 'nothing' : allowed.join(', ');
  const patterns = [
    {
      group,
      message: `src/${folder} may import: ${mayImport} (the layer table: test/architecture/layers.json).`,
    },
    ...(IO_FREE.has(folder) ? NODE_BUILTINS : []),
  ];
  return {
    files: [`src/${folder}/**`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.conformance/**',
      'bench/results/**',
      'docs/.vitepress/dist/**',
      'docs/.vitepress/cache/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  ...Object.entries(IMPORT_MATRIX).map(([folder, allowed]) => matrixBlock(folder, allowed)),
);
