// What is pushed, per kind, and quiet hours: the user's settings, synced with their
// profile (a local write first: it works offline and reaches their other devices). They apply to
// every device with push on; the bell counts everything whatever they say.
import { useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PUSH_SETTINGS, type PushKind, type PushSettings } from '../../../../shared/push';
import { useData } from '../../hooks/useData';
import { useObservable } from '../../hooks/useObservable';
import { errorMessage } from '../../error-message';

export const PUSH_KINDS_TEXT = {
  legend: 'What to push',
  replies: 'Replies to my topics and responses',
  moderation: "A moderator's action on something I wrote",
  mentions: 'Mentions of me (@name)',
  follows: 'New responses in topics I follow',
  followOnReply: 'Follow the topics I create or reply to',
  quiet: 'Quiet hours: no push between',
  quietAnd: 'and',
  zone: (zone: string) => `(${zone} time)`,
} as const;

const KINDS: readonly PushKind[] = ['replies', 'mentions', 'follows', 'moderation'];

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function PushKinds() {
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
  const settings = chosen ?? value ?? DEFAULT_PUSH_SETTINGS;
  const [error, setError] = useState<string | null>(null);
  const quiet = settings.quiet_hours;

  function save(next: PushSettings) {
    setError(null);
    setChosen(next);
    writing.current += 1;
    data
      .setPushSettings(next)
      .then(
        () => {},
        (e: unknown) => {
          setError(errorMessage(e));
          setChosen(null);
        },
      )
      .finally(() => (writing.current -= 1));
  }
  const setQuiet = (start: string, end: string) =>
    save({ ...settings, quiet_hours: { start, end, time_zone: quiet?.time_zone ?? localZone() } });

  return (
    // Only once the device has the profile (null: not pulled yet): a change made over the defaults
    // shown meanwhile would replace the settings the server already holds.
    <fieldset className="push-kinds" disabled={!value}>
      <legend>{PUSH_KINDS_TEXT.legend}</legend>
      {KINDS.map((kind) => (
        <label className="push-kinds-check" key={kind}>
          <input type="checkbox" checked={settings[kind]} onChange={(e) => save({ ...settings, [kind]: e.target.checked })} />
          {PUSH_KINDS_TEXT[kind]}
        </label>
      ))}
      <div className="push-kinds-quiet">
        <label className="push-kinds-check">
          <input
            type="checkbox"
            checked={quiet !== null}
            onChange={(e) =>
              save({ ...settings, quiet_hours: e.target.checked ? { start: '22:00', end: '07:00', time_zone: localZone() } : null })
            }
          />
          {PUSH_KINDS_TEXT.quiet}
        </label>
        {quiet && (
          <span className="push-kinds-times">
            <input
              type="time"
              aria-label="Quiet hours start"
              value={quiet.start}
              required
              onChange={(e) => e.target.value && setQuiet(e.target.value, quiet.end)}
            />
            <span>{PUSH_KINDS_TEXT.quietAnd}</span>
            <input
              type="time"
              aria-label="Quiet hours end"
              value={quiet.end}
              required
              onChange={(e) => e.target.value && setQuiet(quiet.start, e.target.value)}
            />
            <span className="muted">{PUSH_KINDS_TEXT.zone(quiet.time_zone)}</span>
          </span>
        )}
      </div>
      {/* Not a push kind: which topics are followed at all (their notifications reach the bell too). */}
      <label className="push-kinds-check push-kinds-follow">
        <input
          type="checkbox"
          checked={settings.follow_on_reply}
          onChange={(e) => save({ ...settings, follow_on_reply: e.target.checked })}
        />
        {PUSH_KINDS_TEXT.followOnReply}
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
