// Sign-in widget actions (Google, Twitter, e-mail + password, sign-up, password
// recovery) and the username save. Each throws a person-readable Error.
import { getAuthInstance } from './firebase';
import { AuthError, authErrorMessage, type AuthContext } from './error-messages';
import { followFirebase, refreshSessionUser, setProfilePending } from './session';
import { usernameProblem } from '../../../shared/rules/username.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The Auth instance and the SDK's functions: the Firebase SDK is a chunk of its own, loaded on first use. */
async function firebaseAuth() {
  // A visitor's page has not loaded the SDK yet: follow its user before signing anyone in.
  const [auth, sdk] = await Promise.all([getAuthInstance(), import('firebase/auth'), followFirebase()]);
  return { auth, sdk };
}

export const WIDGET = {
  emailRequired: 'Enter your email address to continue',
  emailInvalid: "That email address isn't correct",
  passwordRequired: 'Enter your password',
  nameRequired: 'Enter your account name',
  weakPassword: 'Strong passwords have at least 6 characters and a mix of letters and numbers',
  usernameSaveFailed: 'An error occurred while saving the username.',
} as const;

/** The e-mail field's rules, with the texts above; null when valid. */
export function checkEmail(email: string): string | null {
  if (!email.trim()) return WIDGET.emailRequired;
  if (!EMAIL_PATTERN.test(email.trim())) return WIDGET.emailInvalid;
  return null;
}

async function run<T>(context: AuthContext, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw new AuthError(error, context);
  }
}

export async function signInWithProvider(provider: 'google' | 'twitter'): Promise<void> {
  const { auth, sdk } = await firebaseAuth();
  await run('signIn', () =>
    sdk.signInWithPopup(auth, provider === 'google' ? new sdk.GoogleAuthProvider() : new sdk.TwitterAuthProvider()),
  );
}

export async function signInWithEmail(email: string, password: string): Promise<void> {
  const { auth, sdk } = await firebaseAuth();
  await run('signIn', () => sdk.signInWithEmailAndPassword(auth, email.trim(), password));
}

/** The password policy of the project (Firebase's validatePassword); null when it passes. */
export async function checkPassword(password: string): Promise<string | null> {
  if (!password) return WIDGET.passwordRequired;
  const { auth, sdk } = await firebaseAuth();
  try {
    const status = await sdk.validatePassword(auth, password);
    return status.isValid ? null : WIDGET.weakPassword;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'auth/unsupported-password-policy-schema-version') throw new Error(authErrorMessage(error));
    // No policy reachable (offline, or the emulator has none): the default minimum of 6.
    return password.length >= 6 ? null : WIDGET.weakPassword;
  }
}

export async function signUpWithEmail(name: string, email: string, password: string): Promise<void> {
  const { auth, sdk } = await firebaseAuth();
  setProfilePending(true);
  try {
    await run('signUp', async () => {
      const { user } = await sdk.createUserWithEmailAndPassword(auth, email.trim(), password);
      await sdk.updateProfile(user, { displayName: name.trim() });
      await user.getIdToken(true); // the server reads the name claim from the token
      refreshSessionUser();
    });
  } finally {
    setProfilePending(false);
  }
}

export async function sendRecoveryEmail(email: string): Promise<void> {
  const { auth, sdk } = await firebaseAuth();
  await run('reset', () => sdk.sendPasswordResetEmail(auth, email.trim()));
}

/** Sets the display name (stored trimmed), then refreshes the token so its name claim is current. */
export async function saveUsername(raw: string): Promise<void> {
  const name = raw.trim();
  // The server's rule for names from a token (it stores none that breaks it).
  const problem = usernameProblem(name);
  if (problem) throw new Error(problem);
  const { auth, sdk } = await firebaseAuth();
  const user = auth.currentUser;
  if (!user) throw new Error(WIDGET.usernameSaveFailed);
  try {
    await sdk.updateProfile(user, { displayName: name });
    await user.getIdToken(true);
  } catch (error) {
    throw new Error(error instanceof Error && error.message ? error.message : WIDGET.usernameSaveFailed);
  }
  refreshSessionUser();
}

export const VERIFY_MAIL = {
  notice: 'We send the weekly summary only to a verified address.',
  button: 'Send verification e-mail',
  sent: (email: string) => `Verification e-mail sent to ${email}. Open the link in it; after that the weekly summary goes there.`,
  failed: 'Could not send the verification e-mail.',
} as const;

/**
 * Sends the signed-in user Firebase's address-verification mail (the weekly summary goes
 * only to a verified address). Throws a person-readable Error.
 */
export async function sendVerificationEmail(): Promise<void> {
  const { auth, sdk } = await firebaseAuth();
  const user = auth.currentUser;
  if (!user) throw new Error(VERIFY_MAIL.failed);
  await run('general', () => sdk.sendEmailVerification(user));
}
