// The one error the write actions throw: a message for a person (SPEC.md §5 texts)
// and a stable code the screens can branch on.

export type DataErrorCode = 'unauthenticated' | 'invalid-argument' | 'not-found' | 'permission-denied';

export class DataError extends Error {
  constructor(
    message: string,
    readonly code: DataErrorCode,
  ) {
    super(message);
    this.name = 'DataError';
  }
}
