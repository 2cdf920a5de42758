// A suspended user's banner: why, and until when. Their posting controls say the same
// (useWriteBlock); writes made offline anyway become sync problems with the server's refusal.
import { useSuspension } from '../../hooks/useMyAccount';
import './SuspensionBanner.css';

export function SuspensionBanner() {
  const message = useSuspension();
  if (!message) return null;
  return (
    <div className="suspension-banner" role="status" data-testid="suspension-banner">
      {message}
    </div>
  );
}
