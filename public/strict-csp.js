// Read by zod before any schema is built (its config lives on globalThis): the app runs under a
// Content-Security-Policy without 'unsafe-eval', and zod's probe for eval alone is reported as a
// violation. A classic deferred script, so it runs before the app's modules whatever their chunks.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
