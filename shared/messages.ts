// Texts a person reads, word for word from the product specification where it gives
// them. The server answers with these in `{"error": ...}` and the app shows them.

export const MSG = {
  contentEmpty: 'Content cannot be empty.',
  titleEmpty: 'Topic title cannot be empty.',
  categoryMissing: 'Please select a category.',
  loginToCreateTopic: 'You must be logged in to create a topic.',
  loginToVote: 'You must be logged in to vote.',
  loginToDeleteTopic: 'You must be logged in to delete a topic.',
  loginToDeleteResponse: 'You must be logged in to delete a response.',
  loginToPostResponse: 'You must be logged in to post a response.',
  loginToEditResponse: 'You must be logged in to edit a response.',
  loginToSeeNotifications: 'You need to be logged in to see notifications.',
  loginToManagePreferences: 'You must be logged in to manage your preferences.',
  loginToUpdatePreferences: 'You must be logged in to update your preferences.',
  loginToSeeScore: 'You must be logged in to see a score.',
  idTokenFailed: 'Could not get ID token. Please log in again.',
  accessTokenFailed: 'Could not get access token. Please log in again.',
  usernameEmpty: 'Username cannot be empty.',
  topicNotFound: 'Topic not found.',
  /** A reply to a topic shown from the server's first screen before the device has its copy (offline, or still loading). */
  topicNotOnDevice: 'This topic is not on this device yet: it loads while you are online. Your text is kept; post it again then.',
  responseNotFound: 'Response not found.',
  notificationNotFound: 'Notification not found.',
  userNotFound: 'User not found.',
  notFound: 'Not found.',
  invalidToken: 'Your session is not valid. Please log in again.',
  notYourTopic: 'Only the creator can delete this topic.',
  notYourResponse: 'Only the creator can change this response.',
  notYourNotifications: 'You can only see your own notifications.',
  notYourNotification: 'You can only mark your own notifications.',
  bodyTooLarge: 'The request body is too large (at most 1 MiB).',
  invalidJson: 'The request body is not valid JSON.',
  idTaken: 'An item with this id already exists.',
  quoteOtherTopic: 'The quoted response must be in the same topic.',
  quoteSelf: 'A response cannot quote itself.',
  quoteNotFound: 'The quoted response does not exist.',
  parentOtherTopic: 'The parent response belongs to another topic.',
  targetNotFound: 'The item you voted on does not exist.',
  onlyResponsesTakeOpinionVotes:
    'Only a response takes a disagree or a pass vote: a topic takes an upvote, and your stance answers its question.',
  preferencesUpdated: 'Your preferences have been updated.',
  preferencesLoadFailed: 'Failed to load your preferences.',
  preferencesUpdateFailed: 'Failed to update your preferences.',
  voteAddFailed: 'Failed to add upvote.',
  voteRemoveFailed: 'Failed to remove upvote.',
  voteChangeFailed: 'Failed to save your vote.',
  loginToRecordStance: 'You must be logged in to record where you stand.',
  stanceMissing: 'Please choose agree, disagree or unsure.',
  noStanceYet: 'You have not recorded where you stand on this topic.',
  deltaBeforeChange: 'You can credit a response once your stance has changed.',
  deltaTooMany: 'You can credit at most 3 responses for each change of view.',
  deltaOwnResponse: 'You cannot credit your own response.',
  deltaOtherTopic: 'You can only credit responses in this topic.',
  deltaAfterChange: 'You can only credit a response written before your stance changed.',
  internal: 'Something went wrong on our side. Please try again.',
  syncOutdated: 'Crux was updated — reload to keep syncing.',
  // ---- moderation ----
  loginToReport: 'You must be logged in to report.',
  reportThanks: 'Thanks — a moderator will look at this.',
  reportOwnItem: 'You cannot report your own content.',
  reportTargetNotFound: 'The item you reported does not exist.',
  reportReasonMissing: 'Please choose a reason.',
  reportNoteTooLong: 'A note has at most 500 characters.',
  loginToModerate: 'You must be logged in to moderate.',
  moderatorsOnly: 'Only moderators can do this.',
  adminsOnly: 'Only admins can change roles.',
  cannotActOnAdmin: 'Moderators cannot act on admins.',
  moderationReasonEmpty: 'Please give a reason: the author will see it.',
  hiddenPendingReview: 'Hidden until a moderator reviews it',
  /** What a notification's excerpt of a response says once its author deleted it. */
  deletedByAuthor: 'Deleted by its author',
  /** The author's name on what a deleted account left (its texts kept, anonymised). */
  deletedUser: 'deleted user',
  /** The text that replaces a deleted account's topic titles and responses when it chose to delete them. */
  deletedWithAccount: "Deleted with its author's account",
  loginToDeleteAccount: 'You must be logged in to delete your account.',
  deleteAccountContentChoice:
    'content must be "delete" (your topics and responses are erased) or "anonymise" (they stay, shown as by "deleted user").',
  accountServiceUnavailable:
    'Your data was deleted, but the sign-in account could not be removed right now: please try again in a few minutes.',
  topicLocked: 'This topic is locked: it takes no new responses.',
  removedItemReadOnly: 'A moderator removed this item: it cannot be edited.',
  spamRepeat: 'You have posted the same text several times in the last hour: it looks like spam.',
  loginToBlock: 'You must be logged in to block someone.',
  loginToFollow: 'You must be logged in to follow a topic.',
  blockSelf: 'You cannot block yourself.',
  loginToPush: 'You must be logged in to turn on push notifications.',
  pushNotSetUp: 'Push notifications are not set up on this server.',
  pushSubscriptionNotFound: 'This device does not receive your push notifications.',
  pushEndpointNotAService:
    "The push endpoint is not on a browser's push service (Google FCM, Mozilla, Apple or Windows); the server sends pushes nowhere else.",
} as const;

/** The text everyone but the author and moderators reads in place of a removed item. */
export const removedByModerator = (reason: string) => `Removed by a moderator: ${reason}`;

/** What a suspended user's refused write says. `until` is an ISO time; SUSPENDED_FOR_GOOD means for good. */
export function suspendedMessage(until: string, reason: string): string {
  if (until.startsWith('9999')) return `Your account is suspended: ${reason}`;
  return `Your account is suspended until ${until.slice(0, 10)}: ${reason}`;
}

/** The author's notification of a removal. */
export const removalNotice = (kind: 'topic' | 'response', reason: string) => `A moderator removed your ${kind}: ${reason}`;
export const restoreNotice = (kind: 'topic' | 'response') => `A moderator restored your ${kind}.`;

export const newUserTopicsMessage = (perDay: number) => `New accounts can create at most ${perDay} topics a day.`;
export const newUserLinksMessage = (links: number) => `New accounts can cite at most ${links} sources in a response.`;
/** The collapsed line of a blocked user's topic or response ("Show" is the button beside it). */
export const blockedHidden = (name: string) => `Hidden: you blocked ${name}.`;
