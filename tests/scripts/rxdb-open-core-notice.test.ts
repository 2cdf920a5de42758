// The build's RxDB notice plugin against the RxDB actually installed: the notice's
// condition is found and turned off, nothing else in the file changes, and a file without it fails
// loudly (an RxDB upgrade that moves the notice must not bring it back quietly).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEXIE_INSTANCE_FILE, NOTICE_CONDITION, withoutOpenCoreNotice } from '../../scripts/rxdb-open-core-notice';

const rxdbRoot = dirname(dirname(createRequire(import.meta.url).resolve('rxdb/package.json')));
const file = join(rxdbRoot, 'rxdb/dist/esm/plugins/storage-dexie/rx-storage-instance-dexie.js');

describe('the RxDB Open Core notice plugin', () => {
  it('turns off the notice in the installed Dexie storage, and only that', () => {
    expect(DEXIE_INSTANCE_FILE.test(file)).toBe(true);
    const code = readFileSync(file, 'utf8');
    const patched = withoutOpenCoreNotice(code, file);
    expect(patched).not.toContain(NOTICE_CONDITION);
    expect(patched.replace('if (false) {', NOTICE_CONDITION)).toBe(code);
  });

  it('fails with the file named when the notice is not where it expects', () => {
    expect(() => withoutOpenCoreNotice('export const x = 1;', 'some/rx-storage-instance-dexie.js')).toThrow(
      /some\/rx-storage-instance-dexie\.js: RxDB's Open Core notice is no longer where/,
    );
  });
});
