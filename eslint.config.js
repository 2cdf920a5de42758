// ESLint (flat config): `npm run lint` (with Prettier's check), `npm run lint:fix`. `npm run lint`
// keeps a cache in node_modules/.cache (by content): a second run reads only the files that changed.
// A type-aware finding caused by another file's change can hide behind it; CI, on a fresh clone,
// lints everything (delete the folder to do the same here).
// TypeScript is linted with type information (typescript-eslint's
// recommendedTypeChecked through the project service, tsconfig.json): the rules
// that catch real bugs stay on (floating and misused promises, awaiting a
// non-promise, needless type assertions); the no-unsafe-* family, which flags every
// use of an `any` value, is off. React's rules of hooks apply to the app.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['**/node_modules/', 'dist/', 'dev-dist/', 'build/', 'coverage/', 'data/', 'reports/', '.tmp/', 'tests/scripts/fixtures/']),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `any` flowing through the code is tolerated (JSON, RxDB and Firebase types)...
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // ...but writing `any` is not: use unknown, a type, or a disable comment saying why.
      '@typescript-eslint/no-explicit-any': 'error',
      // A promise nobody awaits loses its error; `void promise` says it is on purpose.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // An async function where a void callback is expected loses its error, except
      // React's event handler props (onClick={async () => ...}), which is the usual idiom.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // The code has no `this` outside Error subclasses: its "methods" are closures in
      // object literals, safe to pass around (expect(data.signIn), { toggleVote: actions.toggleVote }).
      '@typescript-eslint/unbound-method': 'off',
      // An async function without await (an interface's async method) is fine.
      'require-await': 'off',
      '@typescript-eslint/require-await': 'off',
      // `_name` marks a parameter or binding that is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },

  // Plain JavaScript (this file, scripts/test.mjs): no type information, Node globals.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },

  // The PWA: browser globals and React's rules of hooks.
  {
    files: ['app/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // The service worker: the worker's globals, typed by its own program (tsconfig.sw.json: no DOM).
  {
    files: ['app/src/service-worker/sw.ts'],
    languageOptions: {
      globals: globals.serviceworker,
      parserOptions: { projectService: false, project: './tsconfig.sw.json', tsconfigRootDir: import.meta.dirname },
    },
  },

  // One HTTP client (app/src/data/http.ts): the rest of the app reaches the server through the data
  // layer, never with a request of its own (the service worker answers the browser's own fetches).
  {
    files: ['app/src/**/*.{ts,tsx}'],
    ignores: ['app/src/data/**', 'app/src/service-worker/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'EventSource'].map((name) => ({
          name,
          message: 'Ask the server through the data layer (CruxData, app/src/data/http.ts), not directly.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'fetch',
          message: 'Ask the server through the data layer (CruxData, app/src/data/http.ts), not directly.',
        })),
      ],
    },
  },

  // Tests read JSON answers of every shape: `any` there is a parsed body, not a design choice.
  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
