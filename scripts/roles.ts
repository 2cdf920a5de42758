// Roles through firebase-admin, for `npm run users:role` (scripts/users-role.ts) and the
// demo moderator and admin `npm start` creates in the Auth emulator. A role is the custom claim
// crux_role; the user's other custom claims are kept.
//
// Which Firebase: the local Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set (what `npm start`
// runs: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099, project demo-crux), else the real project from
// the server's own environment (FIREBASE_PROJECT_ID, and FIREBASE_SERVICE_ACCOUNT or Google's
// application default credentials).
import { cert, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth, type UserRecord } from 'firebase-admin/auth';
import { ROLE_CLAIM, ROLES, type Role } from '../shared/constants.js';

export const USAGE = 'Usage: npm run users:role -- <email or uid> <member|moderator|admin>';

/** A user's role was not changed, with the message to print. */
export class RoleCommandError extends Error {}

/** firebase-admin's Auth for the emulator (FIREBASE_AUTH_EMULATOR_HOST) or the configured project. */
export function adminAuth(env: NodeJS.ProcessEnv = process.env): Auth {
  const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-crux';
  const serviceAccount = env.FIREBASE_AUTH_EMULATOR_HOST ? undefined : env.FIREBASE_SERVICE_ACCOUNT;
  const name = `crux-admin-${projectId}`;
  const app =
    getApps().find((candidate) => candidate.name === name) ??
    initializeApp(serviceAccount ? { projectId, credential: cert(JSON.parse(serviceAccount)) } : { projectId }, name);
  return getAuth(app);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The account by e-mail (anything with an @) or uid; RoleCommandError when there is none. */
export async function findUser(auth: Auth, who: string): Promise<UserRecord> {
  try {
    return who.includes('@') ? await auth.getUserByEmail(who) : await auth.getUser(who);
  } catch (error) {
    const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
    if (code === 'auth/user-not-found')
      throw new RoleCommandError(`No user ${who.includes('@') ? 'with the e-mail' : 'with the uid'} ${who}.`);
    throw error;
  }
}

/** Sets the account's crux_role claim, keeping its other custom claims; returns the updated account. */
export async function setRole(auth: Auth, who: string, role: string): Promise<UserRecord> {
  if (!isRole(role)) throw new RoleCommandError(`Unknown role "${role}": use one of ${ROLES.join(', ')}.`);
  const user = await findUser(auth, who);
  await auth.setCustomUserClaims(user.uid, { ...(user.customClaims ?? {}), [ROLE_CLAIM]: role });
  return auth.getUser(user.uid);
}

/** The success line: "<email> (<uid>) is now <role>." */
export function describeChange(user: UserRecord, role: Role): string {
  return `${user.email ?? '(no e-mail)'} (${user.uid}) is now ${role}.`;
}

/** The demo staff `npm start` creates in the local Auth emulator (never on a real project). */
export const DEMO_STAFF = [
  { uid: 'demo-moderator', email: 'moderator@example.com', password: 'crux-moderator', displayName: 'Demo Moderator', role: 'moderator' },
  { uid: 'demo-admin', email: 'admin@example.com', password: 'crux-admin', displayName: 'Demo Admin', role: 'admin' },
] as const satisfies readonly { uid: string; email: string; password: string; displayName: string; role: Role }[];

/**
 * Creates (or, when they exist, resets) the demo moderator and admin with their role claims, and
 * answers the lines that say who they are. Idempotent: a second call changes nothing.
 */
export async function seedDemoStaff(auth: Auth): Promise<string[]> {
  const lines: string[] = [];
  for (const person of DEMO_STAFF) {
    const { uid, email, password, displayName, role } = person;
    let existing: UserRecord | undefined;
    try {
      existing = await auth.getUser(uid);
    } catch (error) {
      const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
      if (code !== 'auth/user-not-found') throw error;
    }
    if (existing) await auth.updateUser(uid, { email, password, displayName, emailVerified: true });
    else await auth.createUser({ uid, email, password, displayName, emailVerified: true });
    await auth.setCustomUserClaims(uid, { ...(existing?.customClaims ?? {}), [ROLE_CLAIM]: role });
    lines.push(`Demo ${role}: ${email} / ${password}`);
  }
  return lines;
}
