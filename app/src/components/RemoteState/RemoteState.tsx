// The states every page over a remote read shares (leaderboard, sources, user pages): the data
// layer failed ("Error: …"), nothing to show yet ("Loading …"), the last fetch failed (its text,
// above whatever copy is kept), and how old the copy on this device is. The page draws the copy.
import type { ReactNode } from 'react';
import type { RemoteCopy } from '../../hooks/useLeaderboard';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import { errorMessage } from '../../error-message';

interface Props<T> {
  copy: RemoteCopy<T> | undefined;
  /** The observable's own error (the data layer could not read at all). */
  error: unknown;
  loadingText: string;
  /** 'stale': the age only when the copy was not refreshed; 'always': also "Updated …" when fresh. */
  age?: 'stale' | 'always';
  children: (value: T, copy: RemoteCopy<T>) => ReactNode;
}

export function RemoteState<T>({ copy, error, loadingText, age = 'stale', children }: Props<T>) {
  if (error)
    return (
      <p className="error-text" role="alert">
        Error: {errorMessage(error)}
      </p>
    );
  if (!copy || (copy.loading && copy.value === null))
    return (
      <p className="status-text" role="status">
        {loadingText}
      </p>
    );
  const stale = copy.stale && !copy.loading;
  return (
    <>
      {copy.error && (
        <p className="error-text" role="alert">
          {copy.error}
        </p>
      )}
      {copy.fetchedAt && (stale || age === 'always') && (
        <p className="muted remote-age" role="status">
          {stale ? 'Last copy on this device. ' : ''}Updated <RelativeTime date={copy.fetchedAt} />
        </p>
      )}
      {copy.value !== null && children(copy.value, copy)}
    </>
  );
}
