// Authorship shows as 'Anonymous' when no username exists. One rule for
// every place a person's name is shown (rows, responses, quotes, notifications, leaderboard).
export const ANONYMOUS = 'Anonymous';

export const authorName = (name: string | null | undefined): string => (name ? name : ANONYMOUS);
