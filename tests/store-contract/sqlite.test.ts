// The storage contract against the SQLite store, on a real file in a temporary
// directory (WAL, migrations and FTS5 as in production).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { runStoreContract } from './store-contract.js';

runStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crux-store-contract-'));
  const store = createStore(openDatabase(join(dir, 'crux.sqlite')));
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
