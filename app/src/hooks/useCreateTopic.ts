// Creating a topic from the search-or-create box: a title, a signed-in author and a category, then a visit to the new topic.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { isCategory } from '../../../shared/rules/category';
import { useData } from './useData';
import { errorMessage } from '../error-message';

/** The first rule broken, as the text a person reads (shared/messages.ts); null when the topic may be created. */
export function validateNewTopic(title: string, category: string, signedIn: boolean): string | null {
  if (!title.trim()) return MSG.titleEmpty;
  if (!signedIn) return MSG.loginToCreateTopic;
  if (!isCategory(category)) return MSG.categoryMissing;
  return null;
}

export function useCreateTopic(signedIn: boolean, onCreated: () => void) {
  const data = useData();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  async function create(title: string, category: string) {
    const invalid = validateNewTopic(title, category, signedIn);
    setError(invalid);
    if (invalid || !isCategory(category)) return;
    setCreating(true);
    try {
      const topic = await data.createTopic({ title: title.trim(), category });
      onCreated();
      void navigate(`/topics/${topic.id}`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setCreating(false);
    }
  }
  return { create, error, creating, clearError: () => setError(null) };
}
