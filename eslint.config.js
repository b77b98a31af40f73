import tseslint from 'typescript-eslint';

// Which top-level folder under src/ may import which (imports point down the layers only).
// The same table as test/architecture/imports.test.ts, which also catches cycles; keep them in sync.
// Same-folder imports are always allowed; cli may import anything, so it has no entry.
const CORE_FOLDERS = ['protocol', 'errors', 'uri', 'content'];
const IMPORT_MATRIX = {
  protocol: [],
  errors: ['protocol'],
  uri: ['protocol', 'errors'],
  content: ['protocol', 'errors', 'uri'],
  server: CORE_FOLDERS,
  client: CORE_FOLDERS,
  host: [...CORE_FOLDERS, 'client'],
  bus: CORE_FOLDERS,
  providers: [...CORE_FOLDERS, 'server'],
  transports: ['protocol', 'errors', 'content', 'server', 'client'],
};
const ALL_FOLDERS = [...Object.keys(IMPORT_MATRIX), 'cli', 'testing'];

// The I/O-free core must not reach for Node built-ins; transports, providers and the CLI may.
const IO_FREE = new Set(['protocol', 'errors', 'content', 'uri', 'server', 'client', 'host']);
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
    { group, message: `src/${folder} may import: ${mayImport} (see eslint.config.js).` },
    ...(IO_FREE.has(folder) ? NODE_BUILTINS : []),
  ];
  return {
    files: [`src/${folder}/**`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.conformance/**', 'bench/results/**'] },
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
