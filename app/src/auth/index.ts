// Public surface of the auth module (the store imports getToken from here).
export { getToken, signOut, getSession, subscribeSession, startSession } from './session';
export type { SessionUser, SessionState } from './session';
export { authErrorMessage, isSessionEndingError } from './error-messages';
