// `npm run docs:api`: writes docs/API.md from the OpenAPI document the server serves at
// /api/openapi.json (sync-server/src/openapi/). `--check` only says whether the file is up to date
// (tests/shared/openapi-document.test.ts checks the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describedApi } from '../sync-server/src/openapi/described.js';
import { apiMarkdownFile } from '../sync-server/src/openapi/markdown.js';

const file = fileURLToPath(new URL('../docs/API.md', import.meta.url));
const text = await apiMarkdownFile(describedApi(), file);
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing: out of date
  }
  if (current !== text) {
    console.error('docs/API.md is out of date: run npm run docs:api');
    process.exit(1);
  }
  console.log('docs/API.md is up to date.');
} else {
  writeFileSync(file, text);
  console.log(`Wrote ${file}`);
}
