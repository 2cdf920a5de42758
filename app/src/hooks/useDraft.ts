// Keeps a composer's unsent text as a local draft (it never leaves the device).
import { useCallback, useEffect, useRef } from 'react';
import { useData } from './useData';

const SAVE_DELAY_MS = 400;

/**
 * Restored once on mount when the box is empty, saved after a short pause, and
 * forgotten with `clear()` once the response is posted. Drafts belong to the
 * signed-in user's database, so nothing is kept while signed out.
 */
export function useDraft(key: string | null, uid: string | null, text: string, restore: (text: string) => void) {
  const data = useData();
  const restored = useRef(false);
  const unsaved = useRef<string | null>(null);
  const persist = useCallback(
    (draftKey: string, value: string) => {
      unsaved.current = null;
      void (value.trim() ? data.saveDraft(draftKey, value) : data.deleteDraft(draftKey)).catch(() => undefined);
    },
    [data],
  );
  useEffect(() => {
    restored.current = false;
    if (!key || !uid) return;
    let live = true;
    data
      .loadDraft(key)
      .then((draft) => {
        if (live && draft) restore(draft.text);
      })
      .catch(() => undefined)
      .finally(() => {
        restored.current = true;
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restore once per key and user
  }, [data, key, uid]);
  useEffect(() => {
    if (!key || !uid || !restored.current) return;
    unsaved.current = text;
    const timer = setTimeout(() => persist(key, text), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [persist, key, uid, text]);
  // Leaving the page before the pause ends still keeps what was typed.
  useEffect(
    () => () => {
      if (key && uid && unsaved.current !== null) persist(key, unsaved.current);
    },
    [persist, key, uid],
  );
  return {
    clear: () => {
      unsaved.current = null;
      if (key && uid) void data.deleteDraft(key).catch(() => undefined);
    },
  };
}
