import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

/**
 * Every Node built-in, with or without `node:` and with subpaths (`fs/promises`). A regex
 * matched against the whole specifier: a gitignore-style group would also refuse
 * `./domain` or `./constants`, which are built-in names too.
 */
const nodeBuiltins = `^(node:.*|(${builtinModules.filter((n) => !n.startsWith('_')).join('|')})(/.*)?)$`;

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
            { regex: nodeBuiltins, message: 'shared/ must not import Node built-ins.' },
            { group: ['electron'], message: 'shared/ must not import electron.' },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/clients/**'],
              message: 'shared/ depends on nothing else in the project.',
            },
            {
              group: ['**/node/**'],
              message: 'shared/ runs in the page too: shared/node/ is for Node-side code only.',
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
            { regex: nodeBuiltins, message: 'renderer/ runs in a sandboxed page.' },
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
    // The engine is pure: time, ids, files and sockets come injected from the composition
    // roots (main/core.ts), so it imports no Node built-in, not even through shared/node/.
    files: ['main/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron'], message: 'The engine is pure: no electron.' },
            {
              regex: nodeBuiltins,
              message: 'The engine is pure: Node services (time, randomness, files) come injected.',
            },
            {
              group: [
                '**/store/**',
                '**/server/**',
                '**/notify/**',
                '**/shell/**',
                '**/shared/node/**',
              ],
              message: 'The engine gets collaborators injected.',
            },
          ],
        },
      ],
    },
  },
  {
    // clients/ (CLI, SDK, hooks, MCP, demo) run beside the daemon, not inside it: they share
    // code with it only through shared/ (shared/node/ for Node-side code), never main/.
    files: ['clients/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'clients/ import only shared/ (and shared/node/) and their own folders.',
            },
            { group: ['electron'], message: 'clients/ never run in Electron.' },
          ],
        },
      ],
    },
  },
);
