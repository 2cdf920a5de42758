// What both engines' kept versions share (store/sqlite/kept-versions.ts, store/pg/kept-versions.ts).

/** How long a version read from the database is trusted when no write of this process or of a peer was announced. */
export const RECHECK_MS = 2;
