// The one error vocabulary of Crux (docs/API.md "Conventions"): a stable kebab-case code for
// programs to branch on, the HTTP status it travels with, and a message for a
// person. The server's domain throws CruxError, the HTTP edge turns it into
// `{ "error": message, "code": code }`, and the app's data layer throws the same
// class for refusals it decides locally (signed out, not found on this device).

export const ERROR_STATUS = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'already-exists': 409,
  /** A one-click unsubscribe link past its time (routes/unsubscribe.ts). */
  'link-expired': 410,
  'resource-exhausted': 413,
  /** The client speaks an older sync protocol: it must reload to get the new app. */
  'sync-outdated': 426,
  'rate-limited': 429,
  internal: 500,
  /** A form of an answer the server does not make (GET /api/oembed?format=xml: oEmbed says 501). */
  'not-implemented': 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** The shape of every error body the API sends. */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
}

export class CruxError extends Error {
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CruxError';
    this.status = ERROR_STATUS[code];
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);

export const badRequest = (message: string) => new CruxError('invalid-argument', message);
export const unauthorized = (message: string) => new CruxError('unauthenticated', message);
export const forbidden = (message: string) => new CruxError('permission-denied', message);
export const notFound = (message: string) => new CruxError('not-found', message);
export const conflict = (message: string) => new CruxError('already-exists', message);
