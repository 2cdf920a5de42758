// On another user's page: "Report" for anyone (signed out: the login message), and for
// an admin "Make moderator" / "Remove moderator" (PUT /api/users/{uid}/role), with the result.
import { useState } from 'react';
import type { Role } from '../../../../shared/constants';
import { errorMessage } from '../../error-message';
import { useData } from '../../hooks/useData';
import { useMyAccount } from '../../hooks/useMyAccount';
import { useSession } from '../../hooks/useSession';
import { ReportButton } from '../ReportDialog/ReportDialog';
import './UserModeration.css';

export function UserModeration({ uid, name, role }: { uid: string; name: string; role?: Role | null }) {
  const { user } = useSession();
  const account = useMyAccount();
  if (user?.uid === uid) return null;
  return (
    <div className="user-moderation">
      <ReportButton targetType="user" targetId={uid} label={`user ${name}`} className="btn user-moderation-target" />
      {account?.role === 'admin' && <RoleControl uid={uid} name={name} role={role ?? null} />}
    </div>
  );
}

function RoleControl({ uid, name, role }: { uid: string; name: string; role: Role | null }) {
  const data = useData();
  // What the server said last (the page's copy may not carry the role).
  const [current, setCurrent] = useState<Role | null>(role);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (current === 'admin') return <p className="muted user-moderation-role">{name} is an admin.</p>;

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
        <button type="button" className="btn user-moderation-target" disabled={saving} onClick={() => void set('moderator')}>
          Make moderator
        </button>
      )}
      {current !== 'member' && (
        <button type="button" className="btn user-moderation-target" disabled={saving} onClick={() => void set('member')}>
          Remove moderator
        </button>
      )}
      {message && (
        <p className="status-text user-moderation-result" role="status">
          {message}
        </p>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
