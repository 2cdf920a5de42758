// Verifies Firebase ID tokens with firebase-admin. With FIREBASE_AUTH_EMULATOR_HOST
// set, firebase-admin accepts the emulator's unsigned tokens (and looks the user up).
//
// Revoked sessions: an ID token stays valid for an hour once issued, so a
// signature check alone lets a disabled account (or one whose sessions were revoked)
// keep writing until it expires. Every verified token is also checked against the
// account's current state (disabled, tokensValidAfterTime) from firebase-admin's
// getUser, cached per uid for AUTH_STATUS_CACHE_SECONDS (default 30 s): a disabled
// user's token stops working at most that long after the change, without a call to
// Google on every request (which verifyIdToken(token, true) would make). A deleted
// account (getUser: auth/user-not-found) is refused the same way, never served from
// its last known state.
//
// Verified tokens: checking a token's signature costs more than the whole
// request it guards, so a verified token is remembered (bounded LRU, by its string)
// until its own `exp`; the account-state check above still runs on every request,
// from its cache, so a disabled or revoked account is refused within the same window.
// Against the Auth emulator too: its verifyIdToken asks the emulator over
// HTTP on every call, which made every signed-in request wait for it; a disabled or
// deleted account is now refused within AUTH_STATUS_CACHE_SECONDS there as in
// production (the tests, which want it at once, run with that cache at 0).
import { firebaseAuth } from './roles.js';
import { acceptableDisplayName } from '../../../shared/rules/username.js';
import { ROLE_CLAIM, ROLES, type Role } from '../../../shared/constants.js';
import { logger } from '../observe/logger.js';

export interface AuthUser {
  uid: string;
  name: string | null;
  email: string | null;
  /** The token's email_verified claim: the weekly summary goes only to a verified address. */
  emailVerified?: boolean;
  /**
   * The crux_role custom claim: from the account's current claims when the verifier
   * reads the account (so a change applies within AUTH_STATUS_CACHE_SECONDS), else from the token.
   * Absent (in-process callers: the seed, tests) or unknown: 'member'.
   */
  role?: Role;
}

export interface TokenVerifier {
  /** Resolves the token's user or rejects when the token is missing, forged, expired or revoked. */
  verify(token: string): Promise<AuthUser>;
  /**
   * What verify would resolve to, when that is known without waiting: the token verified before
   * and not expired, the account's state read within AUTH_STATUS_CACHE_SECONDS and allowing it
   * (one Map lookup each, no decoding). Otherwise undefined: verify says (http/fast-reads.ts).
   * The same user object for as long as neither changes: not to be modified.
   */
  verifyNow?(token: string): AuthUser | undefined;
}

/** The parts of firebase-admin's Auth the verifier uses (tests pass their own). */
export interface AuthBackend {
  verifyIdToken(token: string): Promise<{
    uid: string;
    auth_time: number;
    exp?: number | undefined;
    name?: unknown;
    email?: string | undefined;
    email_verified?: boolean | undefined;
    iat?: number | undefined;
    [claim: string]: unknown;
  }>;
  getUser(uid: string): Promise<{
    disabled: boolean;
    tokensValidAfterTime?: string | undefined;
    customClaims?: { [claim: string]: unknown } | undefined;
  }>;
}

export interface VerifierOptions {
  /** How long an account's state (disabled, revoked) is trusted before it is read again. */
  statusCacheMs?: number;
  /** At most this many accounts' states are remembered (the oldest is forgotten first). */
  maxCachedAccounts?: number;
  now?: () => number;
  /**
   * false: the signature and expiry only (no admin credentials to read accounts with).
   * Default true.
   */
  checkAccountStatus?: boolean;
  /** At most this many verified tokens are remembered until they expire (default 10,000; 0: none). */
  maxCachedTokens?: number;
}

type Decoded = Awaited<ReturnType<AuthBackend['verifyIdToken']>>;

/**
 * verifyIdToken, remembered per token string until the token's `exp` (seconds), the least
 * recently used forgotten first past `max`. A token without `exp` is never remembered.
 */
function cachedVerify(
  auth: AuthBackend,
  max: number,
  now: () => number,
): { verify: (token: string) => Promise<Decoded>; known: (token: string) => Decoded | undefined } {
  const verified = new Map<string, Decoded & { exp: number }>();
  /** The remembered verification of a token still unexpired (made the most recently used), else undefined (forgotten when expired). */
  const known = (token: string): Decoded | undefined => {
    const hit = verified.get(token);
    if (!hit) return undefined;
    verified.delete(token);
    if (now() >= hit.exp * 1000) return undefined;
    verified.set(token, hit);
    return hit;
  };
  const verify = async (token: string): Promise<Decoded> => {
    const hit = known(token);
    if (hit) return hit;
    const decoded = await auth.verifyIdToken(token);
    if (max > 0 && typeof decoded.exp === 'number' && now() < decoded.exp * 1000) {
      verified.set(token, decoded as Decoded & { exp: number });
      if (verified.size > max) verified.delete(verified.keys().next().value!);
    }
    return decoded;
  };
  return { verify, known };
}

export const DEFAULT_STATUS_CACHE_MS = 30_000;

interface AccountStatus {
  disabled: boolean;
  /** Tokens issued (auth_time) before this instant were revoked; 0 when never. */
  validAfterMs: number;
  /** The account's crux_role claim now (may be newer than a token's). */
  role: Role;
  readAt: number;
}

export class TokenRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TokenRefused';
  }
}

/** firebase-admin's answer for an account that does not exist (deleted): `auth/user-not-found`. */
function isUserNotFound(error: unknown): boolean {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  return code === 'auth/user-not-found';
}

/** A claim's value as a role: anything but a known role is a member. */
export function roleOf(claim: unknown): Role {
  return (ROLES as readonly unknown[]).includes(claim) ? (claim as Role) : 'member';
}

/** The caller as the verified token describes them. */
function userOf(decoded: Decoded): AuthUser {
  return {
    uid: decoded.uid,
    name: acceptableDisplayName(decoded.name),
    email: decoded.email ?? null,
    emailVerified: decoded.email_verified === true,
    role: roleOf(decoded[ROLE_CLAIM]),
  };
}

export function createTokenVerifier(auth: AuthBackend, options: VerifierOptions = {}): TokenVerifier {
  const now = options.now ?? Date.now;
  const { verify: verifyIdToken, known } = cachedVerify(auth, options.maxCachedTokens ?? 10_000, now);
  // verifyNow's answers, per remembered token verification: the user, and the account state it was made from.
  const answers = new WeakMap<Decoded, { status: AccountStatus | null; user: AuthUser }>();
  const answerOf = (decoded: Decoded, status: AccountStatus | null, make: () => AuthUser): AuthUser => {
    const made = answers.get(decoded);
    if (made && made.status === status) return made.user;
    const user = make();
    answers.set(decoded, { status, user });
    return user;
  };
  if (options.checkAccountStatus === false) {
    return {
      async verify(token) {
        const decoded = await verifyIdToken(token);
        return userOf(decoded);
      },
      verifyNow(token) {
        const decoded = known(token);
        return decoded && answerOf(decoded, null, () => userOf(decoded));
      },
    };
  }
  const ttl = options.statusCacheMs ?? DEFAULT_STATUS_CACHE_MS;
  const maxAccounts = options.maxCachedAccounts ?? 10_000;
  const cache = new Map<string, AccountStatus>();
  const reading = new Map<string, Promise<AccountStatus>>();

  async function read(uid: string): Promise<AccountStatus> {
    const record = await auth.getUser(uid);
    const validAfter = record.tokensValidAfterTime ? Date.parse(record.tokensValidAfterTime) : 0;
    const status = {
      disabled: record.disabled,
      validAfterMs: Number.isFinite(validAfter) ? validAfter : 0,
      role: roleOf(record.customClaims?.[ROLE_CLAIM]),
      readAt: now(),
    };
    cache.delete(uid);
    cache.set(uid, status);
    if (cache.size > maxAccounts) cache.delete(cache.keys().next().value!);
    return status;
  }

  async function statusOf(uid: string): Promise<AccountStatus> {
    const cached = cache.get(uid);
    if (cached && now() - cached.readAt < ttl) return cached;
    let pending = reading.get(uid);
    if (!pending) {
      pending = read(uid).finally(() => reading.delete(uid));
      reading.set(uid, pending);
    }
    try {
      return await pending;
    } catch (error) {
      // The account was deleted: refused, never its last known state (which would let a deleted
      // account's token work until it expires).
      if (isUserNotFound(error)) {
        cache.delete(uid);
        throw new TokenRefused('The account was deleted.');
      }
      // Google unreachable: the last known state rather than refusing every signed-in user.
      if (cached) return cached;
      throw error;
    }
  }

  /** The caller once the token and the account's state are known and allow it. */
  const userFor = (decoded: Decoded, status: AccountStatus): AuthUser => {
    // A name that breaks the username rules (too long, invisible or direction-changing
    // characters) is not stored: the user shows as "Anonymous" until they choose another.
    // The role as the account has it now (a revoked moderator stops moderating within the cache's
    // time), unless the token was issued after the account was read: then the token is newer
    // (`iat` is in whole seconds: a token of the second the account was read in counts as newer).
    const user = userOf(decoded);
    const issuedAt = typeof decoded.iat === 'number' ? decoded.iat * 1000 : 0;
    return issuedAt + 1000 > status.readAt ? user : { ...user, role: status.role };
  };
  const refused = (decoded: Decoded, status: AccountStatus) => status.disabled || decoded.auth_time * 1000 < status.validAfterMs;

  return {
    async verify(token) {
      const decoded = await verifyIdToken(token);
      const status = await statusOf(decoded.uid);
      if (status.disabled) throw new TokenRefused('The account is disabled.');
      if (decoded.auth_time * 1000 < status.validAfterMs) throw new TokenRefused('The session was revoked.');
      return userFor(decoded, status);
    },
    verifyNow(token) {
      const decoded = known(token);
      if (!decoded) return undefined;
      // statusOf's cache hit, without its promise; a refusal is verify's to answer (a 401).
      const status = cache.get(decoded.uid);
      if (!status || now() - status.readAt >= ttl || refused(decoded, status)) return undefined;
      return answerOf(decoded, status, () => userFor(decoded, status));
    },
  };
}

export function createFirebaseVerifier(projectId: string, serviceAccountJson?: string, options: VerifierOptions = {}): TokenVerifier {
  const auth = firebaseAuth(projectId, serviceAccountJson);
  // Reading an account (getUser) needs admin credentials, which checking a token's
  // signature does not: the emulator, a service account, or Google's application
  // default credentials (GOOGLE_APPLICATION_CREDENTIALS, or AUTH_CHECK_ACCOUNTS=on where
  // the platform provides them). Without any, every getUser would fail and lock
  // everyone out, so the check is skipped, loudly.
  const env = process.env;
  const canReadAccounts =
    env.AUTH_CHECK_ACCOUNTS !== 'off' &&
    (Boolean(env.FIREBASE_AUTH_EMULATOR_HOST) ||
      Boolean(serviceAccountJson) ||
      Boolean(env.GOOGLE_APPLICATION_CREDENTIALS) ||
      env.AUTH_CHECK_ACCOUNTS === 'on');
  if (!canReadAccounts) {
    logger.warn(
      'Disabled or revoked accounts are NOT checked: set FIREBASE_SERVICE_ACCOUNT (or GOOGLE_APPLICATION_CREDENTIALS, or AUTH_CHECK_ACCOUNTS=on with platform credentials).',
    );
  }
  return createTokenVerifier(
    {
      verifyIdToken: async (token) => (await auth()).verifyIdToken(token),
      getUser: async (uid) => (await auth()).getUser(uid),
    },
    { ...options, checkAccountStatus: options.checkAccountStatus ?? canReadAccounts },
  );
}
