// Where the signed-in user's list of blocked users lives (its section of the settings page;
// /settings/blocked still opens it alone for older links), and the words of the links to it.
export const BLOCKED_USERS_PATH = '/settings#blocked';
export const BLOCKED_USERS_LINK = 'Blocked users';
