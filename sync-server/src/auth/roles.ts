// Roles: an admin's grant or revocation of `moderator` sets the crux_role custom
// claim through firebase-admin (the account's other claims kept), on the same firebase-admin app
// as the verifier (auth/verifier.ts), so it works against the Auth emulator as in production.
import type { Auth } from 'firebase-admin/auth';
import { ROLE_CLAIM, type Role } from '../../../shared/constants.js';
import { CruxError, notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';

/** Sets a user's role claim (crux_role) where tokens come from: firebase-admin in main.ts and tests. */
export interface RoleAdmin {
  setRole(uid: string, role: Role): Promise<void>;
  /** Deletes the sign-in account (DELETE /api/me, after its data); an account already gone counts as done. */
  deleteUser(uid: string): Promise<void>;
}

/**
 * firebase-admin's Auth for the project, loaded at its first use: the SDK and its Google client
 * libraries take longer to load than the rest of the server, and a start serves signed-out reads
 * before any token arrives. Every caller of one project shares the one firebase-admin app.
 */
export function firebaseAuth(projectId: string, serviceAccountJson?: string): () => Promise<Auth> {
  let auth: Promise<Auth> | undefined;
  return () =>
    (auth ??= Promise.all([import('firebase-admin/app'), import('firebase-admin/auth')]).then(([admin, { getAuth }]) => {
      const name = `crux-${projectId}`;
      const app =
        admin.getApps().find((candidate) => candidate.name === name) ??
        admin.initializeApp(
          serviceAccountJson ? { projectId, credential: admin.cert(JSON.parse(serviceAccountJson)) } : { projectId },
          name,
        );
      return getAuth(app);
    }));
}

export function createFirebaseRoleAdmin(projectId: string, serviceAccountJson?: string): RoleAdmin {
  const firebase = firebaseAuth(projectId, serviceAccountJson);
  return {
    async setRole(uid, role) {
      try {
        const auth = await firebase();
        const claims = (await auth.getUser(uid)).customClaims ?? {};
        await auth.setCustomUserClaims(uid, { ...claims, [ROLE_CLAIM]: role });
      } catch (error) {
        // The account is gone from Firebase (deleted): as for any unknown user.
        if (error && typeof error === 'object' && 'code' in error && error.code === 'auth/user-not-found') throw notFound(MSG.userNotFound);
        // No admin credentials, or Firebase unreachable: nothing was changed.
        throw new CruxError('unavailable', 'Roles cannot be changed right now: the account service did not answer.');
      }
    },
    async deleteUser(uid) {
      try {
        await (await firebase()).deleteUser(uid);
      } catch (error) {
        if (error && typeof error === 'object' && 'code' in error && error.code === 'auth/user-not-found') return;
        // The data is gone already; the same request again removes the account (domain/account.ts).
        throw new CruxError('unavailable', MSG.accountServiceUnavailable);
      }
    },
  };
}

/** Without firebase-admin credentials (in-process uses): a role change answers 503. */
export const NO_ROLE_ADMIN: RoleAdmin = {
  setRole: () => Promise.reject(new CruxError('unavailable', 'Roles cannot be changed on this server.')),
  deleteUser: () => Promise.reject(new CruxError('unavailable', MSG.accountServiceUnavailable)),
};
