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

/** A specifier that reaches into one of the project's top folders, e.g. `../../main/engine/x`. */
const into = (...folders) => `(^|/)(${folders.join('|')})/`;

/**
 * One process boundary, written once and enforced on both kinds of import: static imports
 * (and `export … from`) through no-restricted-imports, and `import()` through
 * no-restricted-syntax, which no-restricted-imports does not look at. Each ban is a regex over
 * the specifier.
 */
function boundary(bans, extraSyntax = []) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: bans.map(({ regex, message }) => ({ regex, message })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...extraSyntax,
      ...bans.map(({ regex, message }) => ({
        // esquery reads a regex between slashes: the ones inside are escaped.
        selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
        message,
      })),
      {
        selector: "ImportExpression:not([source.type='Literal'])",
        message: 'import() names its module literally, so that lint sees where it goes.',
      },
    ],
  };
}

/** Raw ipcMain / ipcRenderer only inside the typed wrappers. */
const rawIpc = [
  {
    selector: "MemberExpression[object.name='ipcMain']",
    message: 'Use main/shell/ipc-main.ts.',
  },
  {
    selector: "MemberExpression[object.name='ipcRenderer']",
    message: 'Use preload/ipc-renderer.ts.',
  },
];
const IPC_WRAPPERS = ['main/shell/ipc-main.ts', 'preload/ipc-renderer.ts'];

const electron = (message) => ({ regex: '^electron$', message });

const sharedBans = [
  { regex: nodeBuiltins, message: 'shared/ must not import Node built-ins.' },
  electron('shared/ must not import electron.'),
  {
    regex: into('main', 'renderer', 'preload', 'clients'),
    message: 'shared/ depends on nothing else in the project.',
  },
  {
    regex: '(^|/)node/',
    message: 'shared/ runs in the page too: shared/node/ is for Node-side code only.',
  },
];
const sharedNodeBans = [
  electron('shared/ must not import electron.'),
  {
    regex: into('main', 'renderer', 'preload', 'clients'),
    message: 'shared/ depends on nothing else in the project.',
  },
];
const rendererBans = [
  {
    regex: into('main', 'preload', 'clients'),
    message: 'renderer/ talks to main only through window.gatehouse.',
  },
  { regex: nodeBuiltins, message: 'renderer/ runs in a sandboxed page.' },
  electron('renderer/ never sees electron; use window.gatehouse.'),
];
const mainBans = [
  {
    regex: into('clients', 'renderer', 'preload'),
    message:
      'main/ shares code with the clients only through shared/ (shared/node/ for Node-side code).',
  },
];
const engineBans = [
  ...mainBans,
  electron('The engine is pure: no electron.'),
  {
    regex: nodeBuiltins,
    message: 'The engine is pure: Node services (time, randomness, files) come injected.',
  },
  {
    regex: '(^|/)(store|server|notify|shell|remote)/|(^|/)shared/node/',
    message: 'The engine gets collaborators injected.',
  },
];
const clientBans = [
  {
    regex: into('main', 'renderer', 'preload'),
    message: 'clients/ import only shared/ (and shared/node/) and their own folders.',
  },
  electron('clients/ never run in Electron.'),
];

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
    // A promise nobody awaits is an error: an un-awaited async check (an admin route's token
    // check) lets the call through while the check's refusal goes nowhere. Type-aware, so only
    // where the daemon, the hub and the clients run.
    files: ['main/**/*.ts', 'clients/**/*.ts', 'shared/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // shared/ is imported by every process: no Node, no Electron, no DOM. shared/node/ is the
    // exception: Node-side library code that the daemon and the Node clients share.
    files: ['shared/**/*.ts'],
    ignores: ['shared/node/**'],
    languageOptions: { globals: {} },
    rules: boundary(sharedBans),
  },
  {
    // shared/node/ is the Node-side library both the daemon and the clients use: Node
    // built-ins are allowed there (and only there in shared/), electron and the rest still not.
    files: ['shared/node/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: boundary(sharedNodeBans),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...boundary(rendererBans),
    },
  },
  {
    // main/ runs the daemon and the desktop app; what it shares with clients/ is in shared/.
    files: ['main/**/*.ts'],
    ignores: IPC_WRAPPERS,
    rules: boundary(mainBans, rawIpc),
  },
  {
    files: ['main/shell/ipc-main.ts'],
    rules: boundary(mainBans),
  },
  {
    files: ['preload/**/*.ts'],
    ignores: IPC_WRAPPERS,
    rules: { 'no-restricted-syntax': ['error', ...rawIpc] },
  },
  {
    // The engine is pure: time, ids, files and sockets come injected from the composition
    // roots (main/core.ts), so it imports no Node built-in, not even through shared/node/.
    files: ['main/engine/**/*.ts'],
    rules: boundary(engineBans, rawIpc),
  },
  {
    // clients/ (CLI, SDK, hooks, MCP, demo) run beside the daemon, not inside it: they share
    // code with it only through shared/ (shared/node/ for Node-side code), never main/.
    files: ['clients/**/*.ts'],
    rules: boundary(clientBans),
  },
);
