// The name a build gives what it alone can use (the service worker's cache of topic pages, which
// name the build's hashed assets): a hash of the sources the build reads, not the time of the
// build. A time made every `npm start` (which builds again) emit a different app and service
// worker from the same sources, and every open page then offered "a new version" that was not one.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** What the app's build reads besides node_modules (pinned by package-lock.json). */
export const BUILD_INPUTS = [
  'app',
  'shared',
  'public',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.sw.json',
  'scripts/build-id.ts',
  'scripts/rxdb-open-core-notice.ts',
];

/** Every file under `path` (itself, when a file), relative to `root` with '/' separators. */
function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (!statSync(full, { throwIfNoEntry: false })) return [];
  if (!statSync(full).isDirectory()) return [relative(root, full).split(sep).join('/')];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * A short hash of the files named by `inputs` under `root`: their paths and contents, in sorted
 * order, so it depends on nothing but them (not on the time, the directory listing's order, or
 * where the checkout is).
 */
export function sourceHash(root: string, inputs: readonly string[] = BUILD_INPUTS): string {
  const hash = createHash('sha256');
  const files = [...new Set(inputs.flatMap((input) => filesUnder(root, input)))].sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}
