import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'net', 'http', 'crypto', 'child_process'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'clients/sdk/dist/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // shared/ is imported by every process: no Node, no Electron, no DOM. shared/node/ is the
    // exception: Node-side library code that the daemon and the Node clients share.
    files: ['shared/**/*.ts'],
    ignores: ['shared/node/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'shared/ must not import Node built-ins.' },
            { group: ['electron'], message: 'shared/ must not import electron.' },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/clients/**'],
              message: 'shared/ depends on nothing else in the project.',
            },
          ],
        },
      ],
    },
  },
  {
    // shared/node/ is the Node-side library both the daemon and the clients use: Node
    // built-ins are allowed there (and only there in shared/), electron and the rest still not.
    files: ['shared/node/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'shared/ must not import electron.' },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/clients/**'],
              message: 'shared/ depends on nothing else in the project.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/preload/**', '**/clients/**'],
              message: 'renderer/ talks to main only through window.gatehouse.',
            },
            { group: nodeBuiltins, message: 'renderer/ runs in a sandboxed page.' },
            {
              group: ['electron'],
              message: 'renderer/ never sees electron; use window.gatehouse.',
            },
          ],
        },
      ],
    },
  },
  {
    // Raw ipcMain / ipcRenderer only inside the typed wrappers.
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    ignores: ['main/shell/ipc-main.ts', 'preload/ipc-renderer.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ipcMain']",
          message: 'Use main/shell/ipc-main.ts.',
        },
        {
          selector: "MemberExpression[object.name='ipcRenderer']",
          message: 'Use preload/ipc-renderer.ts.',
        },
      ],
    },
  },
  {
    files: ['main/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'The engine is pure: no electron.' },
            {
              group: ['**/store/**', '**/server/**', '**/notify/**', '**/shell/**'],
              message: 'The engine gets collaborators injected.',
            },
          ],
        },
      ],
    },
  },
);
