// Lint rules that keep the process boundaries honest ([code style](docs/code-style.md) points 1, 5, 25) and catch
// promise misuse.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';
import { layersRule } from './scripts/eslint/layers.mjs';

const rawIpc = {
  paths: [
    { name: 'electron', importNames: ['ipcMain'], message: 'Only electron/ipc/register.ts may use ipcMain.' },
    { name: 'electron', importNames: ['ipcRenderer'], message: 'Only electron/preload/index.ts may use ipcRenderer.' },
  ],
};

/** The only files in electron/ that may import `electron` (electron/README.md). */
const ELECTRON_FILES = [
  'electron/main.ts',
  'electron/ipc/register.ts',
  'electron/preload/index.ts',
  'electron/secrets/safe-storage-cipher.ts',
];
const ELECTRON_ONLY = `Only ${ELECTRON_FILES.join(', ')} import electron; everything else runs in plain Node.`;
/** Main never imports the panel; every override of the import rule for electron/ files keeps this pattern. */
const NO_RENDERER = { group: ['**/renderer/**'], message: 'Main never imports the panel; share code through shared/.' };
/** The composition root's one door to the embedded sandbox. */
const SANDBOX_EMBEDDERS = ['electron/app/embedded-sandbox.ts'];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', '.tools/', '.reports/', 'build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs['flat/recommended'],
  prettier,
  ...svelte.configs['flat/prettier'],
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js'] },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      curly: ['error', 'all'],
      // Node warns about url.parse (DEP0169), and the app logs that warning at debug only because libraries alone
      // raise it (electron/core/process-warnings.ts): Greenroom's own code parses URLs with `URL`.
      // The module is taken by name only (`import { fileURLToPath } from 'node:url'`), never whole, so no path to its
      // `parse` is left unseen.
      'no-restricted-syntax': [
        'error',
        ...[
          "ImportDeclaration[source.value=/^(node:)?url$/] > ImportSpecifier[imported.name='parse']",
          'ImportDeclaration[source.value=/^(node:)?url$/] > ImportNamespaceSpecifier',
          'ImportDeclaration[source.value=/^(node:)?url$/] > ImportDefaultSpecifier',
          'ImportExpression[source.value=/^(node:)?url$/]',
          "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?url$/]",
        ].map((selector) => ({
          selector,
          message: 'Import what you need from node:url by name, not parse; parse URLs with `new URL` (DEP0169).',
        })),
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', rawIpc],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, svelteConfig },
    },
  },
  {
    // shared/ is imported by both sides: no Electron, no Node, no renderer code.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '**/electron/**', '**/renderer/**'],
              message: 'shared/ must run in both Node and the browser.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer reaches main only through the contract; no Node, no Electron, no main-process code.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '**/electron/**', 'undici'],
              message: 'The renderer has no network or Node access; go through the contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // Main-process code runs in plain Node: only the four thin files below import Electron, and main never
    // imports the panel ([code style point 1](docs/code-style.md#layout-and-boundaries)).
    files: ['electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: ELECTRON_ONLY }],
          patterns: [NO_RENDERER],
        },
      ],
      'greenroom/layers': 'error',
    },
    plugins: { greenroom: { rules: { layers: layersRule } } },
  },
  {
    files: ['electron/main.ts', 'electron/secrets/safe-storage-cipher.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: rawIpc.paths, patterns: [NO_RENDERER] }] },
  },
  {
    // The Kick sandbox is a separate product that only the composition root embeds; types may be shared.
    files: ['electron/**/*.ts'],
    ignores: SANDBOX_EMBEDDERS,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sandbox/**', '!**/sandbox/**/*.d.ts'],
              allowTypeImports: true,
              message: 'Only electron/app/embedded-sandbox.ts may import the Kick sandbox; go through it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The sandbox is its own product (sandbox/README.md): plain Node, the shared Kick types, the clock and
    // ids, and for its CLI the app's data-dir rules; never Electron, the panel or the rest of main.
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The Kick sandbox runs in plain Node.' }],
          patterns: [
            {
              // A regex: gitignore-style groups cannot re-include a file under an excluded folder.
              regex: '(^|/)(renderer/|electron/(?!core/|app/config$|launch/default-data-dir$))',
              message:
                'The Kick sandbox may use shared/, electron/core/ and the data-dir rules, nothing else of the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The two files that own raw IPC ([code style point 5](docs/code-style.md#ipc-contract)).
    files: ['electron/ipc/register.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [rawIpc.paths[1]], patterns: [NO_RENDERER] }] },
  },
  {
    files: ['electron/preload/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [rawIpc.paths[0]], patterns: [NO_RENDERER] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
