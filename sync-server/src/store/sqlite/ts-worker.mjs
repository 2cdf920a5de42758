// A worker thread's TypeScript module run from the sources (start-worker.ts): loaded through tsx,
// which the worker thread does not inherit from the main thread on Node 20. Its URL is the last argument.
import { tsImport } from 'tsx/esm/api';

await tsImport(process.argv.at(-1), import.meta.url);
