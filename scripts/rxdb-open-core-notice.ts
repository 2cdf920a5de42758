// A Vite plugin that leaves out RxDB's "Open Core RxStorage" console notice, which
// the free Dexie storage prints on a page's first writes (once per concurrent write, as each one
// awaits the premium check before the first sets its "shown" flag: 116 times in one walk of the app).
//
// RxDB's own way to turn it off, setPremiumFlag() from rxdb-premium, needs a premium licence Crux
// does not have, and faking the flag would also lift what the flag gates (the 13-collection limit).
// What the open-source code offers instead is the author's leave to change it in a copy
// (node_modules/rxdb/dist/esm/plugins/utils/utils-premium.js: "you are allowed to fork the repo and
// just overwrite this function"): this does the narrowest such change, the notice's condition in
// the Dexie storage alone, at build time. hasPremiumFlag() itself is untouched. Should RxDB change
// those lines, the build fails here, naming the file, rather than the notice quietly coming back.
import type { Plugin } from 'vite';

export const DEXIE_INSTANCE_FILE = /node_modules\/rxdb\/dist\/esm\/plugins\/storage-dexie\/rx-storage-instance-dexie\.js$/;
export const NOTICE_CONDITION = 'if (!shownNonPremiumLog && !(await hasPremiumFlag())) {';

/** The Dexie storage's source without its notice (the `if` whose body prints it never runs). */
export function withoutOpenCoreNotice(code: string, id: string): string {
  if (!code.includes(NOTICE_CONDITION) || !code.includes('RxDB Open Core RxStorage')) {
    throw new Error(`${id}: RxDB's Open Core notice is no longer where scripts/rxdb-open-core-notice.ts expects it; update the plugin.`);
  }
  return code.replace(NOTICE_CONDITION, 'if (false) {');
}

export function rxdbOpenCoreNotice(): Plugin {
  return {
    name: 'crux-rxdb-open-core-notice',
    enforce: 'pre',
    transform(code, id) {
      if (!DEXIE_INSTANCE_FILE.test(id.split('?')[0]!)) return null;
      return { code: withoutOpenCoreNotice(code, id), map: null };
    },
  };
}
