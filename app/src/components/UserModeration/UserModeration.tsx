// A user page's actions, one row of buttons alike: on another user's page Block / Unblock and Report
// for anyone (signed out: why not), for a moderator Suspend / Unsuspend (the reason dialog, without
// waiting for a report; the user's running suspension is asked of the server), and for an admin
// "Make moderator" / "Remove moderator" (PUT /api/users/{uid}/role) with the result. On your own page,
// the way to your blocked users.
import { useEffect, useState } from 'react';
import { isModerator, SUSPENDED_FOR_GOOD, type Role } from '../../../../shared/constants';
import type { ModeratedUser } from '../../../../shared/types';
import { errorMessage } from '../../error-message';
import { useData } from '../../hooks/useData';
import { useMyAccount, useSuspension } from '../../hooks/useMyAccount';
import { useSession } from '../../hooks/useSession';
import { BlockButton, OwnBlockedUsersLink } from '../BlockButton/BlockButton';
import { ModerateButton, useModerationDialog } from '../ModerationAction/ModerationAction';
import { ReportButton } from '../ReportDialog/ReportDialog';
import './UserModeration.css';

/** Every button of the row looks the same: the action's word says what it does. */
const BUTTON = 'btn user-action';

export function UserModeration({ uid, name, role }: { uid: string; name: string; role?: Role | null }) {
  const { user } = useSession();
  const account = useMyAccount();
  // A suspended account may block (never refused) but not report: the banner says why.
  const suspended = useSuspension() !== null;
  if (user?.uid === uid) return <OwnBlockedUsersLink />;
  return (
    <div className="user-actions" role="group" aria-label="Actions">
      <BlockButton uid={uid} name={name} className={BUTTON} />
      {!suspended && <ReportButton targetType="user" targetId={uid} label={`user ${name}`} target={name} className={BUTTON} />}
      {account && isModerator(account.role) && <SuspendControl uid={uid} name={name} />}
      {account?.role === 'admin' && <RoleControl uid={uid} name={name} role={role ?? null} />}
    </div>
  );
}

/** "Suspended until 2026-12-01: Spam" (or for good), for the moderator who may lift it. */
export function suspensionText(standing: Pick<ModeratedUser, 'suspended_until' | 'suspension_reason'>): string | null {
  const until = standing.suspended_until;
  if (!until) return null;
  const when = until === SUSPENDED_FOR_GOOD ? 'Suspended for good' : `Suspended until ${until.slice(0, 10)}`;
  return standing.suspension_reason ? `${when}: ${standing.suspension_reason}` : when;
}

type Standing = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; user: ModeratedUser };

function SuspendControl({ uid, name }: { uid: string; name: string }) {
  const data = useData();
  const [standing, setStanding] = useState<Standing>({ state: 'loading' });
  // Asked again after each action: the button then offers the other one.
  const [version, setVersion] = useState(0);
  const moderate = useModerationDialog({ targetType: 'user', targetId: uid, what: 'user', excerpt: name }, () => setVersion((v) => v + 1));
  useEffect(() => {
    let alive = true;
    data.moderatedUser(uid).then(
      (user) => alive && setStanding({ state: 'done', user }),
      (error: unknown) => alive && setStanding({ state: 'error', message: errorMessage(error) }),
    );
    return () => {
      alive = false;
    };
  }, [data, uid, version]);

  if (standing.state === 'loading') return null;
  if (standing.state === 'error')
    return (
      <p className="error-text user-action-note" role="alert">
        Could not read {name}&apos;s suspension. Error: {standing.message}
      </p>
    );
  const suspended = suspensionText(standing.user);
  const action = suspended ? 'unsuspend' : 'suspend';
  return (
    <>
      <ModerateButton action={action} label={name} className={BUTTON} onOpen={() => moderate.open(action)} />
      {suspended && <p className="muted user-action-note">{suspended}</p>}
      {moderate.note}
      {moderate.dialog}
    </>
  );
}

function RoleControl({ uid, name, role }: { uid: string; name: string; role: Role | null }) {
  const data = useData();
  // What the server said last (the page's copy may not carry the role).
  const [current, setCurrent] = useState<Role | null>(role);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (current === 'admin') return <p className="muted user-action-note">{name} is an admin.</p>;

  async function set(next: 'member' | 'moderator') {
    setSaving(true);
    setError(null);
    setMessage(null);
    try {
      const change = await data.setUserRole(uid, next);
      setCurrent(change.role);
      setMessage(change.role === 'moderator' ? `${name} is now a moderator.` : `${name} is no longer a moderator.`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }
  return (
    <>
      {current !== 'moderator' && (
        <button type="button" className={BUTTON} disabled={saving} onClick={() => void set('moderator')}>
          Make moderator
        </button>
      )}
      {current !== 'member' && (
        <button type="button" className={BUTTON} disabled={saving} onClick={() => void set('member')}>
          Remove moderator
        </button>
      )}
      {message && (
        <p className="status-text user-action-note" role="status">
          {message}
        </p>
      )}
      {error && (
        <p className="error-text user-action-note" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
