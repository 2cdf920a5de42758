// /unsubscribe: the weekly summary e-mail preference (WeeklySummary: signed in, the synced
// profile, offline too). Opened from a mail's link (?token=…), it confirms the one-click
// unsubscribe with the server (no sign-in: the signed token is the proof; RFC 8058 POST).
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { useData } from '../hooks/useData';
import { WeeklySummary } from '../components/WeeklySummary/WeeklySummary';
import './UnsubscribePage.css';

export const SUBSCRIPTIONS_TITLE = 'Email Subscriptions';
export { SUBSCRIBED_TEXT, UNSUBSCRIBED_TEXT } from '../components/WeeklySummary/WeeklySummary';
export const LINK_DONE_TEXT = 'You have been unsubscribed from the weekly summary e-mails.';

type Result = { ok: true } | { ok: false; detail: string };
type Outcome = Result | null;

export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <main className="page unsubscribe-page" id="main">
      <h1>{SUBSCRIPTIONS_TITLE}</h1>
      {token ? <ConfirmFromMail token={token} /> : <WeeklySummary />}
    </main>
  );
}

/** The one-click unsubscribe of a mail's link: POST the token once, then say how it went. */
function ConfirmFromMail({ token }: { token: string }) {
  const data = useData();
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    let live = true;
    // Idempotent on the server, so a second run (StrictMode, a reload) is harmless.
    void data.confirmUnsubscribe(token).then(
      () => live && setOutcome({ ok: true }),
      // The server's reason (e.g. the link expired), or why it could not be asked.
      (error: unknown) => live && setOutcome({ ok: false, detail: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [data, token]);

  if (!outcome)
    return (
      <p className="status-text" role="status">
        Unsubscribing...
      </p>
    );
  if (!outcome.ok)
    return (
      <div role="alert">
        <p className="error-text">{MSG.preferencesUpdateFailed}</p>
        {outcome.detail && <p>{outcome.detail}</p>}
        <p>
          <Link to="/unsubscribe">Manage your e-mail preferences</Link>
        </p>
      </div>
    );
  return (
    <div role="status">
      <p className="unsubscribe-statement">{LINK_DONE_TEXT}</p>
      <p className="success-text">{MSG.preferencesUpdated}</p>
      <p className="muted">
        Changed your mind? <Link to="/unsubscribe">Open your e-mail preferences</Link> while logged in and choose Subscribe.
      </p>
    </div>
  );
}
