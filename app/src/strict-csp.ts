// The app runs under a Content-Security-Policy without 'unsafe-eval' (sync-server
// http/security-headers.ts). zod compiles its object parsers with `new Function`
// unless told not to, and its feature probe alone is reported as a CSP violation:
// this module, imported first by main.tsx, turns that off before any parse.
import { z } from 'zod';

z.config({ jitless: true });
