// Firebase Auth error codes → the texts a person reads (the product specification's widget texts).
// Codes are matched with or without the "auth/" prefix.

export type AuthContext = 'signIn' | 'signUp' | 'reset' | 'general';

export const DEFAULT_AUTH_ERROR = 'Something went wrong. Please try again.';

const MESSAGES: Record<string, string> = {
  'email-already-in-use': 'The email address is already used by another account',
  'wrong-password': "The email and password you entered don't match",
  'invalid-credential': "The email and password you entered don't match",
  'invalid-login-credentials': "The email and password you entered don't match",
  'user-not-found': "That email address doesn't match an existing account",
  'too-many-requests': 'You have entered an incorrect password too many times. Please try again in a few minutes.',
  'weak-password': 'Strong passwords have at least 6 characters and a mix of letters and numbers',
  'password-does-not-meet-requirements': 'Strong passwords have at least 6 characters and a mix of letters and numbers',
  'invalid-email': "That email address isn't correct",
  'missing-email': 'Enter your email address to continue',
  'missing-password': 'Enter your password',
  'network-request-failed': 'Network error!',
  'expired-action-code': 'This code has expired.',
  'code-expired': 'This code has expired.',
  'invalid-action-code': 'The action code is invalid. This can happen if the code is malformed, expired, or has already been used.',
  'invalid-verification-code': 'Wrong code. Try again.',
  'invalid-phone-number': 'Enter a valid phone number',
  'unsupported-first-factor': 'The country code provided is not supported.',
  'user-token-expired': 'Your sign-in session has expired. Please try again.',
  'invalid-user-token': 'Your sign-in session has expired. Please try again.',
  'quota-exceeded': 'This phone number has been used too many times',
  'requires-recent-login': 'Please login again to perform this operation',
  'user-disabled': 'This account has been disabled.',
  'internal-error': DEFAULT_AUTH_ERROR,
  'invalid-api-key': 'The app is misconfigured (invalid API key). Please try again later.',
  'tenant-id-mismatch': 'This account belongs to another tenant.',
  'login-blocked': 'Sign-in was blocked. Please try again later.',
  'argument-error': DEFAULT_AUTH_ERROR,
  'popup-blocked': 'The sign-in pop-up was blocked by the browser. Allow pop-ups for this site and try again.',
  'popup-closed-by-user': 'The sign-in pop-up was closed before signing in finished.',
  'cancelled-popup-request': 'The sign-in pop-up was closed before signing in finished.',
  'unauthorized-domain': 'Sign-in is not allowed from this domain.',
  'web-storage-unsupported': 'This browser does not support the storage sign-in needs. Enable cookies and site data.',
  'unsupported-password-policy-schema-version': 'The password policy could not be read. Please update the app.',
  'restart-process': 'Please start signing in again.',
  'no-matching-tenant-for-email': 'No sign-in method is available for this email address.',
  'credential-already-in-use': 'This account is already linked to another user; your guest data could not be merged.',
  'account-exists-with-different-credential':
    'This email already exists without any means of sign-in. Please reset the password to recover.',
  // Generic server codes: a descriptive text, never the raw code.
  'invalid-argument': 'The request was not valid.',
  'failed-precondition': 'The operation cannot be done in the current state.',
  unauthenticated: 'Please sign in to continue.',
  'permission-denied': 'You do not have permission to do this.',
  'not-found': 'The requested item was not found.',
  'already-exists': 'This item already exists.',
  'resource-exhausted': 'Too many requests. Try again in a few minutes.',
  unavailable: 'The service is unavailable. Please try again.',
  'deadline-exceeded': 'The request took too long. Please try again.',
};

/** Context-dependent texts of the widget (same code, different situation). */
const BY_CONTEXT: Partial<Record<AuthContext, Record<string, string>>> = {
  signUp: {
    'too-many-requests': 'Too many account requests are coming from your IP address. Try again in a few minutes.',
  },
  reset: {
    'user-not-found': 'Unable to send password reset code to specified email',
    'internal-error': 'Unable to send password reset code to specified email',
  },
};

/** The code of a Firebase error, without its "auth/" prefix; '' for anything else. */
function codeOf(error: unknown): string {
  const raw = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
  return raw.replace(/^auth\//, '');
}

export function authErrorMessage(error: unknown, context: AuthContext = 'general'): string {
  const code = codeOf(error);
  return BY_CONTEXT[context]?.[code] ?? MESSAGES[code] ?? DEFAULT_AUTH_ERROR;
}

/**
 * A failed sign-in step as the widget shows it: the text a person reads, and the code it came
 * from, so the widget can offer the way on (an unknown e-mail: create an account with it).
 */
export class AuthError extends Error {
  readonly code: string;
  constructor(error: unknown, context: AuthContext = 'general') {
    super(authErrorMessage(error, context));
    this.name = 'AuthError';
    this.code = codeOf(error);
  }
}

/**
 * What follows the specification's "doesn't match an existing account" at sign-in: the usual cause
 * is a typo, or an account the identity provider no longer has (a development emulator forgets
 * every account when it restarts), and the way on is to fix the address or create the account.
 */
export const NO_ACCOUNT_HINT = 'Check the address, or create an account with it.';

/** Codes that mean the current user must be signed out: the account is disabled or its session expired. */
export function isSessionEndingError(error: unknown): boolean {
  const raw = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
  return raw === 'auth/user-disabled' || raw === 'auth/user-token-expired';
}
