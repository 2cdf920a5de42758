// The CruxData the screens get when the local database cannot open: every read errors
// and every write rejects with the reason, so the pages show 'Error: …' and the forms say why.
import { of, throwError, type Observable } from 'rxjs';
import type { CruxData } from './api.js';
import { buildByKind, type MemberKind } from './deferred.js';

export function unavailableData(reason: string): CruxData {
  const failing = <T>(): Observable<T> => throwError(() => new Error(reason));
  const rejecting = <T>(): Promise<T> => Promise.reject(new Error(reason));
  const byKind: Record<MemberKind, unknown> = {
    value: failing(),
    // Nobody is signed in, and the header's score shows nothing.
    identity: of(null),
    read: failing,
    'quiet-read': () => of(null),
    call: rejecting,
    'user-call': rejecting,
    // Nothing was opened, so there is nothing to close or sign out of.
    teardown: (): Promise<void> => Promise.resolve(),
  };
  return buildByKind((_, kind) => byKind[kind]);
}
