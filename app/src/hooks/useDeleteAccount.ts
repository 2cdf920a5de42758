// "Delete my account": the server deletes the account's data and sign-in account first; then,
// as a logout that removes the data, this device forgets everything of the account (its database,
// kept topic pages) and Firebase signs out. Push is not turned off through the server first: the
// server already removed every device of the account.
import { useCallback } from 'react';
import type { AccountContentChoice } from '../../../shared/schemas/account';
import { signOut as firebaseSignOut } from '../auth/session';
import { removeTopicPages } from '../service-worker/topic-pages';
import { useData } from './useData';

export function useDeleteAccount(): (content: AccountContentChoice) => Promise<void> {
  const data = useData();
  return useCallback(
    async (content: AccountContentChoice) => {
      await data.deleteAccount(content);
      try {
        await data.signOut({ removeData: true, byUser: true });
        await removeTopicPages();
      } finally {
        await firebaseSignOut();
      }
    },
    [data],
  );
}
