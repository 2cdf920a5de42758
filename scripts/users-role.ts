// `npm run users:role -- <email or uid> <member|moderator|admin>`: sets a user's role,
// the Firebase custom claim crux_role, through firebase-admin (scripts/roles.ts; the user's other
// custom claims are kept). The server reads the claim from the account itself (auth/verifier.ts),
// so the new role applies within AUTH_STATUS_CACHE_SECONDS, or at once with a fresh token.
// Against the local Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set (`npm start` runs it on
// 127.0.0.1:9099, project demo-crux), else the real project from the server's environment
// (FIREBASE_PROJECT_ID, FIREBASE_SERVICE_ACCOUNT). Exit code 1: unknown user or role, or a failure.
import type { Role } from '../shared/constants.js';
import { adminAuth, describeChange, RoleCommandError, setRole, USAGE } from './roles.js';

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
    console.log(`(On ${where}. The server sees the new role within AUTH_STATUS_CACHE_SECONDS, or at the user's next sign-in.)`);
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
