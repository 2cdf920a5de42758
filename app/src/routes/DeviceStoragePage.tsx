// /settings/device: what this device keeps of the site (the topics its screens showed, the responses
// of the topics opened or saved for offline) against its storage budget, and the budget itself. The
// least recently seen topics leave the device first; unsent changes and the user's own never do.
import { useMemo, useState } from 'react';
import { useData } from '../hooks/useData';
import { useObservable } from '../hooks/useObservable';
import { errorMessage } from '../error-message';

const MB = 1024 * 1024;
/** The budgets offered, in MB. */
const BUDGETS = [10, 25, 50, 100];

export const DEVICE_STORAGE_TITLE = 'On this device';

export function DeviceStoragePage() {
  const data = useData();
  const usage$ = useMemo(() => data.deviceStorage$(), [data]);
  const usage = useObservable(usage$).value;
  const [error, setError] = useState<string | null>(null);
  const change = (mb: number) => {
    setError(null);
    data.setStorageBudget(mb * MB).catch((e: unknown) => setError(errorMessage(e)));
  };
  return (
    <main className="page" id="main">
      <h1>{DEVICE_STORAGE_TITLE}</h1>
      <p>
        Crux keeps the topics you have seen, the debates you opened and those you saved for offline, so you can read them without a
        connection. When it needs room, the topics you saw longest ago go first; your own topics and changes not yet sent always stay.
      </p>
      {usage ? (
        <p className="status-text" data-testid="device-usage">
          {`${usage.topics} ${usage.topics === 1 ? 'topic' : 'topics'} and ${usage.responses} ${usage.responses === 1 ? 'response' : 'responses'} kept, about ${(usage.bytes / MB).toFixed(1)} MB of ${Math.round(usage.budget / MB)} MB.`}
        </p>
      ) : (
        <p className="status-text">Loading...</p>
      )}
      <label>
        Keep up to{' '}
        <select value={usage ? Math.round(usage.budget / MB) : 25} onChange={(e) => change(Number(e.target.value))} disabled={!usage}>
          {BUDGETS.map((mb) => (
            <option key={mb} value={mb}>
              {mb} MB
            </option>
          ))}
        </select>{' '}
        of topics and responses on this device
      </label>
      {error && (
        <p className="error-text" role="alert">
          Error: {error}
        </p>
      )}
    </main>
  );
}
