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
  {
    // Bundled into the webview (a browser page): the vscode module and the host side do not exist there.
    files: ['src/webviews/*/webview/**/*.ts', 'src/webviews/*/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'webview code runs in the page, not the extension host.' }],
          patterns: [
            {
              regex: '(^|/)(core|state|views|commands|extension|host)(/|$)',
              message: 'webview code imports only what the webview bundle can hold.',
            },
          ],
        },
      ],
    },
  },
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
