// One error type for everything a handler refuses; the app's onError turns it
// into DESIGN.md §3's `{"error": "<message for a person>"}`.

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;

export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message: string) => new HttpError(401, message, 'unauthenticated');
export const forbidden = (message: string) => new HttpError(403, message, 'permission-denied');
export const notFound = (message: string) => new HttpError(404, message, 'not-found');
export const conflict = (message: string) => new HttpError(409, message, 'already-exists');
