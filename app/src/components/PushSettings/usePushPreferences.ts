// The user's push settings (what is pushed, quiet hours, auto-follow): synced with their profile,
// a local write first (it works offline and reaches their other devices). One instance per page,
// shared by its sections, so a change in one builds on a change just made in another.
import { useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '../../../../shared/push';
import { useData } from '../../hooks/useData';
import { useObservable } from '../../hooks/useObservable';
import { errorMessage } from '../../error-message';

/** Which section made the change whose error is shown (the error shows there). */
export type PushPreferencePart = 'kinds' | 'quiet' | 'follow';

export interface PushPreferences {
  settings: PushSettings;
  /** Until the device has the profile: a change made over the defaults would replace the server's. */
  loading: boolean;
  save(next: PushSettings, part: PushPreferencePart): void;
  error: { part: PushPreferencePart; text: string } | null;
}

export function usePushPreferences(): PushPreferences {
  const data = useData();
  const settings$ = useMemo(() => data.pushSettings$(), [data]);
  const { value } = useObservable(settings$);
  // What was just chosen shows at once, and the next change builds on it, until the store's copy
  // moves after every write has settled. Dropping it when the write resolves instead let a second
  // quick change start from the store's copy before that copy had the first one, and undo it.
  const [chosen, setChosen] = useState<PushSettings | null>(null);
  const writing = useRef(0);
  useEffect(() => {
    if (writing.current === 0) setChosen(null);
  }, [value]);
  const [error, setError] = useState<PushPreferences['error']>(null);

  function save(next: PushSettings, part: PushPreferencePart) {
    setError(null);
    setChosen(next);
    writing.current += 1;
    data
      .setPushSettings(next)
      .then(
        () => {},
        (e: unknown) => {
          setError({ part, text: errorMessage(e) });
          setChosen(null);
        },
      )
      .finally(() => (writing.current -= 1));
  }

  return { settings: chosen ?? value ?? DEFAULT_PUSH_SETTINGS, loading: !value, save, error };
}
