import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CATEGORIES, type Category } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { getStore } from './store';

/** SPEC.md §5 create-topic rules, then the store's createTopic and a visit to the new topic. */
export function validateNewTopic(title: string, category: string, signedIn: boolean): string | null {
  if (!title.trim()) return MSG.titleEmpty;
  if (!signedIn) return MSG.loginToCreateTopic;
  if (!(CATEGORIES as readonly string[]).includes(category)) return MSG.categoryMissing;
  return null;
}

export function useCreateTopic(signedIn: boolean, onCreated: () => void) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  async function create(title: string, category: string) {
    const invalid = validateNewTopic(title, category, signedIn);
    setError(invalid);
    if (invalid) return;
    setCreating(true);
    try {
      const { id } = await getStore().createTopic({ title: title.trim(), category: category as Category });
      onCreated();
      navigate(`/topics/${id}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setCreating(false);
    }
  }
  return { create, error, creating, clearError: () => setError(null) };
}
