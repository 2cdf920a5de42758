// Verifies Firebase ID tokens with firebase-admin. With FIREBASE_AUTH_EMULATOR_HOST
// set, firebase-admin accepts the emulator's unsigned tokens (and looks the user up).
import { cert, getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';

export interface AuthUser {
  uid: string;
  name: string | null;
  email: string | null;
}

export interface TokenVerifier {
  /** Resolves the token's user or rejects when the token is missing, forged, expired or revoked. */
  verify(token: string): Promise<AuthUser>;
}

export function createFirebaseVerifier(projectId: string, serviceAccountJson?: string): TokenVerifier {
  const name = `crux-${projectId}`;
  const app: App =
    getApps().find((candidate) => candidate.name === name) ??
    initializeApp(serviceAccountJson ? { projectId, credential: cert(JSON.parse(serviceAccountJson)) } : { projectId }, name);
  const auth = getAuth(app);
  return {
    async verify(token) {
      const decoded = await auth.verifyIdToken(token);
      const displayName = typeof decoded.name === 'string' ? decoded.name.trim() : '';
      return { uid: decoded.uid, name: displayName || null, email: decoded.email ?? null };
    },
  };
}
