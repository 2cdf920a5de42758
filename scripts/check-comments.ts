// `npm run check:comments`: lists every comment in app/, sync-server/, shared/, scripts/ and tests/
// that cites an issue number or a file the repository does not have (comment-citations.ts), then
// the counts; exits 1 when there is any. `--summary` prints only the counts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { commentHits } from './comment-citations.js';

const CHECKED = /^(?:app|sync-server|shared|scripts|tests)\//;
/** Inputs broken on purpose (tests/scripts/test-runner.test.ts, layers.test.ts). */
const SKIPPED = /^tests\/scripts\/fixtures\//;

const paths = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '');
const known = new Set(paths);
const names = new Set(paths.map((path) => basename(path)));

const counts = { issue: 0, 'missing-file': 0 };
const files = new Set<string>();
for (const path of paths) {
  if (!CHECKED.test(path) || SKIPPED.test(path)) continue;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  for (const hit of commentHits(path, text, known, names)) {
    counts[hit.kind]++;
    files.add(path);
    if (!process.argv.includes('--summary')) console.log(`${path}:${hit.line}: ${hit.kind}: ${hit.text}`);
  }
}
console.log(`${counts.issue} issue citations, ${counts['missing-file']} citations of missing files, in ${files.size} files`);
process.exitCode = counts.issue + counts['missing-file'] > 0 ? 1 : 0;
