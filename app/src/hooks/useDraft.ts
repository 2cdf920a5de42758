// Keeps a composer's unsent text as a local draft (it never leaves the device).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useData } from './useData';

export const DRAFT_SAVE_DELAY_MS = 400;

export interface DraftHandle {
  /** The restore for this key and user has run (the stored draft, if any, was handed to `restore`). */
  ready: boolean;
  /** The text in the box is stored on this device (shown as "Draft saved"). */
  saved: boolean;
  /** Forgets the stored draft (the response was posted). */
  clear(): void;
}

interface Pending {
  key: string;
  uid: string;
  text: string;
}

/**
 * Drafts belong to the signed-in user's database, so nothing is read or written until the data
 * layer has opened that user's database (`data.uid$` equals `uid`): on a reload or a cold start
 * Firebase knows the user before the database is open, and a draft read then would come back empty.
 * The stored draft is restored once per key and user; only text typed after that restore is saved
 * (after a short pause), so the empty box of a starting page never overwrites a stored draft.
 * When the user changes, nothing of the previous user's text is written into the next user's drafts.
 */
export function useDraft(key: string | null, uid: string | null, text: string, restore: (text: string) => void): DraftHandle {
  const data = useData();
  // The user whose database the data layer has open, as state (re-render) and ref (read in cleanups).
  const [dataUid, setDataUid] = useState<string | null>(null);
  const dataUidRef = useRef<string | null>(null);
  useEffect(() => {
    const subscription = data.uid$.subscribe((value) => {
      dataUidRef.current = value;
      setDataUid(value);
    });
    return () => subscription.unsubscribe();
  }, [data]);

  const open = Boolean(key && uid && dataUid === uid);
  const restoreKey = open ? `${uid}\n${key}` : null;
  const [restoredFor, setRestoredFor] = useState<string | null>(null);
  const ready = restoreKey !== null && restoredFor === restoreKey;
  const restoreRef = useRef(restore);
  useEffect(() => {
    restoreRef.current = restore;
  });

  // The stored text the restore handed over: in the render that brings the restore in, a text other
  // than this one was typed (on a slow machine the restore and a keystroke can land in one render).
  const restoredText = useRef<string | null>(null);
  useEffect(() => {
    if (!restoreKey || !key) return;
    let live = true;
    void data
      .loadDraft(key)
      .catch(() => null)
      .then((draft) => {
        if (!live) return;
        // In one go, so the restored text is not taken for typing.
        restoredText.current = draft?.text ?? null;
        if (draft) restoreRef.current(draft.text);
        setRestoredFor(restoreKey);
      });
    return () => {
      live = false;
    };
  }, [data, key, restoreKey]);

  const unsaved = useRef<Pending | null>(null);
  // What was last stored, to say "Draft saved" only while the box still holds exactly that.
  const [stored, setStored] = useState<Pending | null>(null);
  const persist = useCallback(
    (pending: Pending) => {
      unsaved.current = null;
      // Only into the database of the user who typed it.
      if (dataUidRef.current !== pending.uid) return;
      const write = pending.text.trim() ? data.saveDraft(pending.key, pending.text) : data.deleteDraft(pending.key);
      void write.then(
        () => setStored(pending),
        () => undefined,
      );
    },
    [data],
  );

  // Saves what this user typed: a change of `ready` or of the user alone saves nothing, and text the
  // user typed while their database was still opening is saved once the restore has run.
  const last = useRef({ text, owner: '', ready: false });
  const typedEarly = useRef<string | null>(null);
  useEffect(() => {
    const owner = key && uid ? `${uid}\n${key}` : '';
    const previous = last.current;
    last.current = { text, owner, ready };
    // Text that changed with the user or the key (a box emptied at sign-out) was not typed...
    const changed = previous.text !== text && previous.owner === owner;
    // ...but text kept through a sign-in (typed by a visitor, or on a reload before Firebase had
    // restored the user) is this user's now, and is saved like anything they type.
    const carried = previous.owner === '' && owner !== '' && text.trim() !== '';
    if (!key || !uid) return;
    if (!ready) {
      typedEarly.current = changed || carried || typedEarly.current === owner ? owner : null;
      return;
    }
    const typedWithRestore = changed && text !== (restoredText.current ?? '');
    const early = typedEarly.current === owner || carried || typedWithRestore;
    typedEarly.current = null;
    const typing = previous.ready && previous.owner === owner;
    // The render that brings the restore in: its text is the stored draft, unless typed before.
    if (!(typing ? changed : early)) return;
    const pending = { key, uid, text };
    unsaved.current = pending;
    // Text typed before the restore has waited long enough: it is stored at once.
    const timer = setTimeout(() => persist(pending), typing ? DRAFT_SAVE_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [persist, ready, key, uid, text]);

  // Leaving the page (or the key) before the pause ends still keeps what was typed: a closed tab
  // or a reload fires `pagehide`, where React runs no cleanups.
  useEffect(() => {
    const flush = () => {
      if (unsaved.current) persist(unsaved.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [persist, key, uid]);

  return {
    ready,
    saved: ready && stored !== null && stored.key === key && stored.uid === uid && stored.text === text && text.trim() !== '',
    clear: () => {
      unsaved.current = null;
      if (key && uid && dataUidRef.current === uid) void data.deleteDraft(key).catch(() => undefined);
    },
  };
}
