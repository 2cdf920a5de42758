import { useEffect, useRef } from 'react';
import { getStore } from './store';

const SAVE_DELAY_MS = 400;

/**
 * Keeps a composer's unsent text as a local draft (never leaves the device):
 * restored once on mount when the box is empty, saved after a short pause,
 * and forgotten with `clear()` once the response is posted.
 */
export function useDraft(key: string | null, uid: string | null, text: string, restore: (text: string) => void) {
  const restored = useRef(false);
  useEffect(() => {
    restored.current = false;
    if (!key || !uid) return;
    let live = true;
    getStore().loadDraft(key).then((draft) => {
      if (live && draft) restore(draft);
    }).catch(() => undefined).finally(() => { restored.current = true; });
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restore once per key and user
  }, [key, uid]);
  const unsaved = useRef<string | null>(null);
  useEffect(() => {
    if (!key || !uid || !restored.current) return;
    unsaved.current = text;
    const timer = setTimeout(() => persist(key, text), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, uid, text]);
  // Leaving the page before the pause ends still keeps what was typed.
  useEffect(() => () => {
    if (key && uid && unsaved.current !== null) persist(key, unsaved.current);
  }, [key, uid]);
  function persist(draftKey: string, value: string) {
    unsaved.current = null;
    const store = getStore();
    void (value.trim() ? store.saveDraft(draftKey, value) : store.deleteDraft(draftKey)).catch(() => undefined);
  }
  return {
    clear: () => {
      unsaved.current = null;
      if (key && uid) void getStore().deleteDraft(key).catch(() => undefined);
    },
  };
}
