// `npm run users:delete -- <uid> <delete|anonymise>`: deletes an account as its owner would from
// "Delete my account" (domain/account.ts): for an erasure request made another way (mail, support),
// and to apply again, after a backup was restored, the deletions made since that backup was taken
// (docs/OPERATIONS.md "What backups keep"). Works on the store the server's own environment names
// (DATA_DIR or DATABASE_URL) and on the Firebase project (FIREBASE_PROJECT_ID, FIREBASE_SERVICE_ACCOUNT;
// the Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set). An account already deleted in either
// place is finished in the other. Devices learn of it at their next sync. Exit code 1: bad arguments
// or a failure.
import { newId } from '../shared/ids.js';
import { ACCOUNT_CONTENT_CHOICES, type AccountContentChoice } from '../shared/schemas/account.js';
import { createFirebaseRoleAdmin } from '../sync-server/src/auth/roles.js';
import { openStore } from '../sync-server/src/backend.js';
import { readConfig } from '../sync-server/src/config.js';
import { deleteAccount } from '../sync-server/src/domain/account.js';
import { createChangeFeed } from '../sync-server/src/domain/change-feed.js';

const USAGE = 'Usage: npm run users:delete -- <uid> <delete|anonymise>';

async function main(args: string[]): Promise<number> {
  const [uid, content] = args;
  if (!uid || !content || args.length > 2 || !(ACCOUNT_CONTENT_CHOICES as readonly string[]).includes(content)) {
    console.error(USAGE);
    return 1;
  }
  const config = readConfig();
  const store = await openStore(config);
  try {
    const ctx = { store, clock: () => new Date(), newId, changes: createChangeFeed() };
    const accounts = createFirebaseRoleAdmin(config.firebaseProjectId, config.serviceAccountJson);
    await deleteAccount(ctx, accounts, { uid, name: null, email: null }, content as AccountContentChoice);
    console.log(`Deleted the account ${uid} (its topics and responses: ${content === 'delete' ? 'erased' : 'anonymised'}).`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
