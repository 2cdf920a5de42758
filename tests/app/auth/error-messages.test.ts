import { describe, expect, it } from 'vitest';
import { authErrorMessage, DEFAULT_AUTH_ERROR, isSessionEndingError } from '../../../app/src/auth/error-messages';

describe('authErrorMessage', () => {
  it.each([
    ['auth/email-already-in-use', 'signUp', 'The email address is already used by another account'],
    ['auth/user-not-found', 'signIn', "That email address doesn't match an existing account"],
    ['auth/wrong-password', 'signIn', "The email and password you entered don't match"],
    ['auth/invalid-credential', 'signIn', "The email and password you entered don't match"],
    ['auth/weak-password', 'signUp', 'Strong passwords have at least 6 characters and a mix of letters and numbers'],
    ['auth/network-request-failed', 'signIn', 'Network error!'],
    ['auth/too-many-requests', 'signIn', 'You have entered an incorrect password too many times. Please try again in a few minutes.'],
    ['auth/too-many-requests', 'signUp', 'Too many account requests are coming from your IP address. Try again in a few minutes.'],
    ['auth/user-not-found', 'reset', 'Unable to send password reset code to specified email'],
    ['auth/quota-exceeded', 'general', 'This phone number has been used too many times'],
    ['auth/requires-recent-login', 'general', 'Please login again to perform this operation'],
    ['auth/user-token-expired', 'general', 'Your sign-in session has expired. Please try again.'],
    ['auth/invalid-email', 'signIn', "That email address isn't correct"],
    ['auth/invalid-verification-code', 'general', 'Wrong code. Try again.'],
    ['auth/invalid-phone-number', 'general', 'Enter a valid phone number'],
    [
      'auth/account-exists-with-different-credential',
      'general',
      'This email already exists without any means of sign-in. Please reset the password to recover.',
    ],
    ['auth/internal-error', 'signIn', 'Something went wrong. Please try again.'],
  ] as const)('%s (%s) → %s', (code, context, text) => {
    expect(authErrorMessage({ code }, context)).toBe(text);
  });

  it('gives every identity provider code the product specification lists a text of its own or the generic one', () => {
    const codes = [
      'email-already-in-use',
      'wrong-password',
      'user-not-found',
      'too-many-requests',
      'invalid-credential',
      'requires-recent-login',
      'network-request-failed',
      'user-disabled',
      'user-token-expired',
      'internal-error',
      'invalid-api-key',
      'tenant-id-mismatch',
      'invalid-user-token',
      'login-blocked',
      'argument-error',
      'popup-blocked',
      'popup-closed-by-user',
      'unauthorized-domain',
      'web-storage-unsupported',
      'unsupported-password-policy-schema-version',
      'restart-process',
      'no-matching-tenant-for-email',
      'credential-already-in-use',
    ];
    const generic = ['internal-error', 'argument-error'];
    for (const code of codes) {
      const text = authErrorMessage({ code: `auth/${code}` });
      expect(text.length).toBeGreaterThan(5);
      if (!generic.includes(code)) expect(text, code).not.toBe(DEFAULT_AUTH_ERROR);
    }
  });

  it('maps the generic server codes to descriptive text', () => {
    for (const code of [
      'invalid-argument',
      'failed-precondition',
      'unauthenticated',
      'permission-denied',
      'not-found',
      'already-exists',
      'resource-exhausted',
      'unavailable',
      'deadline-exceeded',
    ]) {
      expect(authErrorMessage({ code }), code).not.toBe(DEFAULT_AUTH_ERROR);
    }
  });

  it('falls back to the generic text for unknown codes and non-errors', () => {
    expect(authErrorMessage({ code: 'auth/something-new' })).toBe(DEFAULT_AUTH_ERROR);
    expect(authErrorMessage('boom')).toBe(DEFAULT_AUTH_ERROR);
    expect(authErrorMessage(null)).toBe(DEFAULT_AUTH_ERROR);
  });

  it('signs out only on user-disabled and user-token-expired', () => {
    expect(isSessionEndingError({ code: 'auth/user-disabled' })).toBe(true);
    expect(isSessionEndingError({ code: 'auth/user-token-expired' })).toBe(true);
    expect(isSessionEndingError({ code: 'auth/network-request-failed' })).toBe(false);
    expect(isSessionEndingError(new Error('x'))).toBe(false);
  });
});
