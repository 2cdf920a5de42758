// Where the signed-in user's list of blocked users lives, and the words of the links to it
// (the user's own page and the header menu). Apart from BlockButton so the header, in the entry, loads nothing more.
export const BLOCKED_USERS_PATH = '/settings/blocked';
export const BLOCKED_USERS_LINK = 'Blocked users';
