import { getStore } from './store';
import { useObservable } from './useObservable';

/** Root responses (parentId null) or replies of one response; nothing until `enabled` (lazy first expand). */
export function useReplies(topicId: string, parentId: string | null, enabled = true) {
  const { value, error, loading } = useObservable(
    () => (enabled ? getStore().replies(topicId, parentId) : null),
    `${topicId}|${parentId ?? ''}|${enabled}`,
  );
  return { responses: value ?? [], error, loading: enabled && loading && value === undefined };
}
