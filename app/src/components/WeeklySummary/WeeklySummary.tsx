// The weekly summary e-mail preference of the signed-in user (the /unsubscribe page without a
// mail's token, and the settings page's e-mail section). It reads and writes the synced profile in
// the local database, so it works offline and the change lands once when the device is back.
import { useMemo, useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { useData } from '../../hooks/useData';
import { useObservable } from '../../hooks/useObservable';
import { useSession } from '../../hooks/useSession';
import { sendVerificationEmail, VERIFY_MAIL } from '../../auth/actions';
import './WeeklySummary.css';

export const SUBSCRIBED_TEXT = 'You are subscribed to the weekly summary e-mails.';
export const UNSUBSCRIBED_TEXT = 'You are unsubscribed from the weekly summary e-mails.';

type Outcome = { ok: true } | { ok: false; detail: string } | null;

export function WeeklySummary() {
  return (
    <div className="weekly-summary">
      <PreferenceBody />
    </div>
  );
}

function PreferenceBody() {
  const { ready, user } = useSession();
  if (!ready)
    return (
      <p className="status-text" role="status">
        Loading your preferences...
      </p>
    );
  if (!user) return <p className="status-text">{MSG.loginToManagePreferences}</p>;
  return <Preference />;
}

function Preference() {
  const data = useData();
  const preferences$ = useMemo(() => data.preferences$(), [data]);
  const { value, error } = useObservable(preferences$);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { user } = useSession();

  if (error)
    return (
      <p className="error-text" role="alert">
        {MSG.preferencesLoadFailed}
      </p>
    );
  if (!value)
    return (
      <p className="status-text" role="status">
        Loading your preferences...
      </p>
    );

  const subscribed = value.receive_weekly_summary;
  async function toggle() {
    setSaving(true);
    setOutcome(null);
    try {
      await data.setWeeklySummary(!subscribed);
      setOutcome({ ok: true });
    } catch (e) {
      setOutcome({ ok: false, detail: e instanceof Error && e.message !== MSG.preferencesUpdateFailed ? e.message : '' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <p className="unsubscribe-statement">{subscribed ? SUBSCRIBED_TEXT : UNSUBSCRIBED_TEXT}</p>
      {user?.email && user.emailVerified !== false && <p className="muted">The weekly summary goes to {user.email}.</p>}
      {user?.email && user.emailVerified === false && <VerifyAddress email={user.email} />}
      <button type="button" className="btn btn-primary" onClick={() => void toggle()} disabled={saving}>
        {subscribed ? 'Unsubscribe' : 'Subscribe'}
      </button>
      <div aria-live="polite">
        {outcome?.ok && <p className="success-text">{MSG.preferencesUpdated}</p>}
        {outcome && !outcome.ok && (
          <p className="error-text" role="alert">
            {MSG.preferencesUpdateFailed}
            {outcome.detail ? ` ${outcome.detail}` : ''}
          </p>
        )}
      </div>
    </>
  );
}

/** An unverified address gets no weekly summary: says so, and sends Firebase's verification mail. */
function VerifyAddress({ email }: { email: string }) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function send() {
    setSending(true);
    setOutcome(null);
    try {
      await sendVerificationEmail();
      setOutcome({ ok: true });
    } catch (e) {
      setOutcome({ ok: false, detail: e instanceof Error ? e.message : '' });
    } finally {
      setSending(false);
    }
  }
  return (
    <div className="verify-address">
      <p className="muted">{VERIFY_MAIL.notice}</p>
      <button type="button" className="btn btn-ghost" onClick={() => void send()} disabled={sending}>
        {VERIFY_MAIL.button}
      </button>
      <div aria-live="polite">
        {outcome?.ok && <p className="success-text">{VERIFY_MAIL.sent(email)}</p>}
        {outcome && !outcome.ok && (
          <p className="error-text" role="alert">
            {VERIFY_MAIL.failed}
            {outcome.detail && outcome.detail !== VERIFY_MAIL.failed ? ` ${outcome.detail}` : ''}
          </p>
        )}
      </div>
    </div>
  );
}
