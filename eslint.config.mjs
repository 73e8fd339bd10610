// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.vscode-test/', '.artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  // Which folder may import which (docs/architecture.md): api ← core ← state ← views ← commands ← extension;
  // changes (plain Node, like api) sits on api alone.
  // Each block lists what its folder must not reach; a later block for the same files replaces the rule.
  // Import circles (type-only imports included) are dependency-cruiser's check, run by `npm run lint`: .dependency-cruiser.mjs.
  layer('src/api/**/*.ts', 'src/api is the pure client: no VS Code, nothing of the extension.', [
    'changes',
    'core',
    'state',
    'views',
    'commands',
    'conversations',
    'webviews',
    'extension',
  ]),
  layer(
    'src/changes/**/*.ts',
    "src/changes brings an agent's change into a local repository with git: plain Node, no VS Code, only src/api below it.",
    ['core', 'state', 'views', 'commands', 'conversations', 'webviews', 'extension'],
  ),
  layer('src/core/**/*.ts', 'src/core holds settings, secrets, the log and the connection: no state or UI.', [
    'state',
    'views',
    'commands',
    'conversations',
    'webviews',
    'extension',
  ]),
  layer(
    'src/state/**/*.ts',
    'src/state is what the extension knows and does: no tree, webview or command code.',
    ['views', 'commands', 'webviews', 'extension'],
  ),
  layer('src/views/**/*.ts', 'src/views read state and send commands by id: they import no command code.', [
    'commands',
    'webviews',
    'extension',
  ]),
  layer('src/conversations/**/*.ts', 'src/conversations holds pure helpers for starting conversations.', [
    'state',
    'views',
    'commands',
    'webviews',
    'extension',
  ]),
  layer(
    'src/webviews/**/*.ts',
    'a webview host reads state and the client of the moment; it imports no tree or command code.',
    ['views', 'commands', 'extension'],
  ),
  layer(
    'src/shell/**/*.ts',
    'src/shell is what the entry registers at activation: it imports nothing of what loads later (dist/services.js).',
    [
      'api',
      'changes',
      'core',
      'state',
      'views',
      'commands',
      'conversations',
      'webviews',
      'extension',
      'services',
    ],
  ),
  // The pages (bundled for Chromium, scripts/build/pages.mjs) and the shared/ modules both sides use:
  // allow-lists, not deny-lists, since nothing of the extension host (vscode, src/api with axios and ws,
  // state, …) exists in a page. test/unit/build/pageImportRule.test.ts runs these rules, pageBundles.test.ts
  // checks what the built pages hold.
  onlyImports(
    'src/webviews/*/webview/**/*.ts',
    "a page runs in the browser, where nothing of the extension host exists: it imports only its own folder, its webview's shared/, the page kit (src/webviews/kit/shared and kit/webview), src/common, src/zodLocale and the packages lit, @vscode-elements/elements, marked, dompurify and zod.",
    {
      folders: ['.', '../shared', '../../kit/shared', '../../kit/webview', '../../../common'],
      modules: ['../../../zodLocale'],
      packages: ['lit', '@vscode-elements/elements', 'marked', 'dompurify', 'zod'],
    },
  ),
  onlyImports(
    'src/webviews/*/shared/**/*.ts',
    "a webview's shared/ is bundled into its page and into the host: it imports only its own folder, the kit's shared/ (src/webviews/kit/shared), src/common, src/zodLocale and zod.",
    {
      folders: ['.', '../../kit/shared', '../../../common'],
      modules: ['../../../zodLocale'],
      packages: ['zod'],
    },
  ),
  onlyImports(
    'src/common/**/*.ts',
    'src/common is below both the host and the pages, which bundle it: it imports nothing but its own folder.',
    { folders: ['.'], modules: [], packages: [] },
  ),
);

/** A folder's import rule: no `vscode` in plain Node (src/api, src/changes), and none of the named sibling folders. */
function layer(files, message, forbidden) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: /^src\/(api|changes)\//.test(files) ? [{ name: 'vscode', message }] : [],
          patterns: [{ regex: `(^|/)(${forbidden.join('|')})(/|$)`, message }],
        },
      ],
    },
  };
}

/**
 * An import rule by allow-list: `folders` and `modules` as written from a file directly in the folder
 * (a file in a subfolder is refused what climbs out of it until it has a rule of its own), npm
 * `packages` with any of their subpaths. Dynamic imports and `import()` types are refused too, since
 * `no-restricted-imports` does not read them.
 */
function onlyImports(files, message, { folders, modules, packages }) {
  // one step of a path, never `.` or `..`: `./../api` does not pass for the page's own folder
  const step = '(?!\\.\\.?(?:/|$))[^/]+';
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const allowed = [
    ...folders.map((folder) => `${escape(folder)}(?:/${step})+`),
    ...modules.map(escape),
    ...packages.map((name) => `${escape(name)}(?:/${step})*`),
  ];
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^(?!(?:${allowed.join('|')})$)`, caseSensitive: true, message }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message },
        { selector: 'TSImportType', message },
      ],
    },
  };
}
