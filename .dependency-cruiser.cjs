// The layers of the code (dependency-cruiser): `npm run check:layers` prints what breaks them, and
// tests/scripts/layers.test.ts fails the fast lane on it. Type-only imports count
// (tsPreCompilationDeps): a cycle of types still means two modules that cannot be read alone.
//
// The app's layering (docs/ARCHITECTURE.md "One front door, one registry"): screens (routes/,
// components/) reach the data layer only through hooks/ and context/; data/ knows nothing of React
// or the screens; shared/ is imported by both sides and imports neither; the server and the app
// share code only through shared/.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'screens-through-hooks',
      comment: 'routes/ and components/ read and write through hooks/ (and context/), never data/ itself.',
      severity: 'error',
      from: { path: '^app/src/(?:routes|components)/' },
      to: { path: '^app/src/data/' },
    },
    {
      name: 'data-without-ui',
      comment: 'data/ knows nothing of React, the screens, the hooks or the context that hands it out.',
      severity: 'error',
      from: { path: '^app/src/data/' },
      to: { path: ['^app/src/(?:components|routes|hooks|context)/', '(?:^|/)node_modules/react(?:-dom|-router|-router-dom)?/'] },
    },
    {
      name: 'shared-imports-neither-side',
      comment: 'shared/ is what the app and the server both load: it imports neither.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(?:app|sync-server)/' },
    },
    {
      name: 'server-without-app',
      comment: 'The server shares code with the app only through shared/.',
      severity: 'error',
      from: { path: '^sync-server/' },
      to: { path: '^app/' },
    },
    {
      name: 'app-without-server',
      comment: 'The app shares code with the server only through shared/.',
      severity: 'error',
      from: { path: '^app/' },
      to: { path: '^sync-server/' },
    },
  ],
  options: {
    doNotFollow: { path: '(?:^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
