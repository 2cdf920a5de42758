// `npm run users:role -- <email or uid> <member|moderator|admin>`: sets a user's role,
// the Firebase custom claim crux_role, through firebase-admin (scripts/roles.ts; the user's other
// custom claims are kept), and the role the server keeps for them (users.role, in the store the
// server's own environment names: DATA_DIR or DATABASE_URL), logged as `role`. The server checks
// the stored role when someone acts on the user's content, so a new admin is out of moderators'
// reach at once, not only at their next request.
// Against the local Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set (`npm start` runs it on
// 127.0.0.1:9099, project demo-crux), else the real project from the server's environment
// (FIREBASE_PROJECT_ID, FIREBASE_SERVICE_ACCOUNT). Exit code 1: unknown user or role, or a failure.
import type { Role } from '../shared/constants.js';
import { newId } from '../shared/ids.js';
import { openStore } from '../sync-server/src/backend.js';
import { readConfig } from '../sync-server/src/config.js';
import { adminAuth, describeChange, RoleCommandError, setRole, USAGE } from './roles.js';

/** Sets the role the server keeps for the user; false when the server has not seen them yet (their first request stores the claim). */
async function storeRole(uid: string, role: Role): Promise<boolean> {
  const store = await openStore(readConfig());
  try {
    return await store.transaction(async () => {
      if (!(await store.users.get(uid))) return false;
      await store.moderation.setRole(uid, role, await store.nextSeq());
      await store.moderation.log({
        id: newId(),
        moderator_uid: null,
        action: 'role',
        target_type: 'user',
        target_id: uid,
        reason: `${role} (npm run users:role)`,
        days: null,
        created_at: new Date().toISOString(),
      });
      return true;
    });
  } finally {
    await store.close();
  }
}

async function main(args: string[]): Promise<number> {
  const [who, role] = args;
  if (!who || !role || args.length > 2) {
    console.error(USAGE);
    return 1;
  }
  const where = process.env.FIREBASE_AUTH_EMULATOR_HOST
    ? `the Auth emulator at ${process.env.FIREBASE_AUTH_EMULATOR_HOST}`
    : `the Firebase project ${process.env.FIREBASE_PROJECT_ID ?? 'demo-crux'}`;
  try {
    const user = await setRole(adminAuth(), who, role);
    console.log(describeChange(user, role as Role));
    try {
      const known = await storeRole(user.uid, role as Role);
      console.log(
        known
          ? `(On ${where}, and in the server's store: it holds now.)`
          : `(On ${where}. The server has not seen this user yet: their first request brings the role.)`,
      );
    } catch (error) {
      console.error(
        `The claim is set, but the server's store could not be written (${error instanceof Error ? error.message : String(error)}): ` +
          "run the command again with the server's DATA_DIR or DATABASE_URL, or the role applies only at the user's next request.",
      );
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof RoleCommandError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not set the role on ${where}: ${error instanceof Error ? error.message : String(error)}`);
    if (!process.env.FIREBASE_AUTH_EMULATOR_HOST) {
      console.error(
        'For the local emulator that `npm start` runs: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 npm run users:role -- <email or uid> <role>\n' +
          'For the real project: FIREBASE_PROJECT_ID and FIREBASE_SERVICE_ACCOUNT (the service account JSON), as the server uses.',
      );
    }
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
