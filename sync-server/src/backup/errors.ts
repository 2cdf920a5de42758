/** A restore's target is in use: a server (or a shell, another session) has the database open. */
export class DatabaseInUseError extends Error {}
