import tseslint from 'typescript-eslint';

// The I/O-free core must not reach for Node built-ins; transports, providers and the CLI may.
const CORE = [
  'src/protocol/**',
  'src/errors/**',
  'src/content/**',
  'src/uri/**',
  'src/server/**',
  'src/client/**',
  'src/host/**',
];

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
  {
    files: CORE,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*'],
              message:
                'The core is I/O-free: Node built-ins belong in transports, providers or the CLI.',
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
            {
              group: ['**/transports/**', '**/cli/**', '**/providers/**'],
              message: 'Imports only point down the layers.',
            },
          ],
        },
      ],
    },
  },
);
