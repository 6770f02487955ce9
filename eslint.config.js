import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      'server/db/migrations/',
      'dev-dist/',
      'build/',
      '.build-test-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The UI, the live-query read handles it takes from client-db/, and the operator console.
    files: ['src/**/*.{ts,tsx}', 'client-db/**/*.ts', 'admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      // The UI talks to the network only through the worker (ARCHITECTURE.md).
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'The UI sends commands to the worker; it never calls fetch.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', '**/contract/schema*', '**/contract/api/*'],
              message: 'Full zod stays out of the first page: import types only, or contract/validation.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
