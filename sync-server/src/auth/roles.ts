// Roles (issue 23 #1): an admin's grant or revocation of `moderator` sets the crux_role custom
// claim through firebase-admin (the account's other claims kept), on the same firebase-admin app
// as the verifier (auth/verifier.ts), so it works against the Auth emulator as in production.
import { cert, getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { ROLE_CLAIM } from '../../../shared/constants.js';
import { CruxError } from '../../../shared/errors.js';
import type { RoleAdmin } from '../domain/moderation.js';

export function firebaseApp(projectId: string, serviceAccountJson?: string): App {
  const name = `crux-${projectId}`;
  return (
    getApps().find((candidate) => candidate.name === name) ??
    initializeApp(serviceAccountJson ? { projectId, credential: cert(JSON.parse(serviceAccountJson)) } : { projectId }, name)
  );
}

export function createFirebaseRoleAdmin(projectId: string, serviceAccountJson?: string): RoleAdmin {
  const auth = getAuth(firebaseApp(projectId, serviceAccountJson));
  return {
    async setRole(uid, role) {
      const claims = (await auth.getUser(uid)).customClaims ?? {};
      await auth.setCustomUserClaims(uid, { ...claims, [ROLE_CLAIM]: role });
    },
  };
}

/** Without firebase-admin credentials (in-process uses): a role change answers 503. */
export const NO_ROLE_ADMIN: RoleAdmin = {
  setRole: () => Promise.reject(new CruxError('unavailable', 'Roles cannot be changed on this server.')),
};
