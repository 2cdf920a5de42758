// `npm run db:migrate`: applies the pending migrations of the configured database and exits
// (DATABASE_URL: PostgreSQL, else the SQLite file under DATA_DIR). The servers do the same at
// start; a deploy runs this first so a failing migration stops the deploy, not the servers.
import { openStore } from '../sync-server/src/backend.js';
import { readConfig } from '../sync-server/src/config.js';

const config = readConfig();
const store = await openStore(config);
await store.close();
console.log(`Migrated ${config.databaseUrl ? 'the PostgreSQL database' : config.databaseFile}.`);
