// Builds a CruxData: wiring only. The local databases and what is built on them (world.ts), the
// signed-in user (session.ts, sign-in.ts), the reads (reads.ts), the writes (writes.ts), the
// sync status (status.ts) and the server's subscriptions (subscriptions.ts), all over one HTTP
// client (http.ts).
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import type { CruxData, CruxDataOptions } from './api.js';
import { createConnectivity } from './connectivity.js';
import { createEndedSession } from './ended-session.js';
import type { DbOptions } from './db.js';
import { createHttp, syncHttp } from './http.js';
import { createProblemRecorder } from './problems.js';
import { createReads } from './reads.js';
import { createSession } from './session.js';
import { createSignIn } from './sign-in.js';
import { createStatus } from './status.js';
import { keepInMemoryOnFailure } from './storage-fallback.js';
import { createStorageShortfalls } from './storage-shortfall.js';
import { createSubscriptions } from './subscriptions.js';
import { createWorlds } from './world.js';
import { createWrites } from './writes.js';
import { yieldToMain } from './yield.js';

export async function createCruxData(options: CruxDataOptions): Promise<CruxData> {
  // Storage that cannot open or runs out of quota: the app goes on in memory and says so.
  const shortfalls = createStorageShortfalls();
  const dbOptions: DbOptions = {
    storage: keepInMemoryOnFailure(options.storage ?? getRxStorageDexie(), getRxStorageMemory(), shortfalls.add),
    prefix: options.dbPrefix ?? 'crux',
    devMode: options.devMode ?? import.meta.env?.DEV ?? false,
    multiInstance: options.multiInstance ?? true,
    duplicateInstances: options.duplicateInstances ?? 'close',
  };
  const connectivity = createConnectivity(
    options.events ?? (typeof window !== 'undefined' ? window : undefined),
    options.isOnline ?? (() => (typeof navigator !== 'undefined' ? navigator.onLine : true)),
  );
  // Every request of this data layer goes through this one client.
  const http = createHttp(options.baseUrl, options.fetch ?? globalThis.fetch.bind(globalThis), connectivity);

  const session = createSession(options.sessionKnown);
  const problems = createProblemRecorder(() => session.current()?.db ?? null);
  const ended = createEndedSession();
  const worlds = await createWorlds({
    dbOptions,
    keepTopics: options.keepTopics ?? 50,
    connectivity,
    http: syncHttp(http),
    problems,
    session: session.current,
    userDb$: session.userDb$,
    retryTimeMs: options.retryTimeMs ?? 5000,
    // Someone else is signed in after a session ended here: its unsent writes are theirs to handle.
    endedFrom: () => {
      const current = session.current();
      const from = ended.uid();
      return current && from && from !== current.uid ? from : null;
    },
  });
  const { endedPending$, ...signIn } = createSignIn({ dbOptions, session, worlds, connectivity, problems, ended });
  const reads = createReads({ http, connectivity, worlds, session });
  const writes = createWrites(worlds, session);

  // The screens waiting for the data layer switch to it when this resolves: in a task of their own.
  await yieldToMain();
  return session.asUser({
    ...signIn,
    status$: createStatus(worlds, connectivity, endedPending$),
    ...reads,
    ...createSubscriptions(http, session.current),
    storageNote$: () => shortfalls.note$,
    ...writes,
  } satisfies CruxData);
}
