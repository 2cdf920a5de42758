// The parts of the user's push settings, each a section of the settings page: what is pushed,
// quiet hours, and which topics are followed on their own. They apply to every device with push on;
// the bell counts everything whatever they say. One usePushPreferences() feeds them all.
import type { PushKind } from '../../../../shared/push';
import type { PushPreferencePart, PushPreferences } from './usePushPreferences';

export const PUSH_KINDS_TEXT = {
  legend: 'What to push',
  replies: 'Replies to my topics and responses',
  moderation: "A moderator's action on something I wrote",
  mentions: 'Mentions of me (@name)',
  follows: 'New responses in topics I follow',
  followOnReply: 'Follow the topics I create or reply to',
  followExplain: 'New responses in the topics you follow reach your bell, and your push notifications if you chose them above.',
  quietHeading: 'Quiet hours',
  quietToggle: 'Pause push notifications during quiet hours',
  quietFrom: "Don't send push notifications from",
  quietTo: 'to',
  quietStart: 'Quiet hours start',
  quietEnd: 'Quiet hours end',
  zone: (zone: string) => `(${zone} time)`,
} as const;

const KINDS: readonly PushKind[] = ['replies', 'mentions', 'follows', 'moderation'];

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

interface PartProps {
  prefs: PushPreferences;
}

function PartError({ prefs, part }: PartProps & { part: PushPreferencePart }) {
  if (prefs.error?.part !== part) return null;
  return (
    <p className="error-text" role="alert">
      {prefs.error.text}
    </p>
  );
}

export function PushKinds({ prefs }: PartProps) {
  const { settings, save } = prefs;
  return (
    <fieldset className="push-kinds" disabled={prefs.loading}>
      <legend>{PUSH_KINDS_TEXT.legend}</legend>
      {KINDS.map((kind) => (
        <label className="push-kinds-check" key={kind}>
          <input type="checkbox" checked={settings[kind]} onChange={(e) => save({ ...settings, [kind]: e.target.checked }, 'kinds')} />
          {PUSH_KINDS_TEXT[kind]}
        </label>
      ))}
      <PartError prefs={prefs} part="kinds" />
    </fieldset>
  );
}

export function QuietHours({ prefs }: PartProps) {
  const { settings, save } = prefs;
  const quiet = settings.quiet_hours;
  const setQuiet = (start: string, end: string) =>
    save({ ...settings, quiet_hours: { start, end, time_zone: quiet?.time_zone ?? localZone() } }, 'quiet');
  return (
    // No legend: the page's section heading names it.
    <fieldset className="push-kinds" disabled={prefs.loading}>
      <label className="push-kinds-check">
        <input
          type="checkbox"
          checked={quiet !== null}
          onChange={(e) =>
            save({ ...settings, quiet_hours: e.target.checked ? { start: '22:00', end: '07:00', time_zone: localZone() } : null }, 'quiet')
          }
        />
        {PUSH_KINDS_TEXT.quietToggle}
      </label>
      {quiet && (
        <p className="push-kinds-times">
          <span>{PUSH_KINDS_TEXT.quietFrom}</span>
          <input
            type="time"
            aria-label={PUSH_KINDS_TEXT.quietStart}
            value={quiet.start}
            required
            onChange={(e) => e.target.value && setQuiet(e.target.value, quiet.end)}
          />
          <span>{PUSH_KINDS_TEXT.quietTo}</span>
          <input
            type="time"
            aria-label={PUSH_KINDS_TEXT.quietEnd}
            value={quiet.end}
            required
            onChange={(e) => e.target.value && setQuiet(quiet.start, e.target.value)}
          />
          <span className="muted">{PUSH_KINDS_TEXT.zone(quiet.time_zone)}</span>
        </p>
      )}
      <PartError prefs={prefs} part="quiet" />
    </fieldset>
  );
}

/** Not a push kind: which topics are followed at all (their notifications reach the bell too). */
export function AutoFollow({ prefs }: PartProps) {
  const { settings, save } = prefs;
  return (
    // No legend: the page's section heading names it.
    <fieldset className="push-kinds" disabled={prefs.loading}>
      <label className="push-kinds-check">
        <input
          type="checkbox"
          checked={settings.follow_on_reply}
          onChange={(e) => save({ ...settings, follow_on_reply: e.target.checked }, 'follow')}
        />
        {PUSH_KINDS_TEXT.followOnReply}
      </label>
      <p className="muted">{PUSH_KINDS_TEXT.followExplain}</p>
      <PartError prefs={prefs} part="follow" />
    </fieldset>
  );
}
