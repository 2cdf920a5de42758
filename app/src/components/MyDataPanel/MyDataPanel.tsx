// The header menu's data items for a signed-in user: "Download my data" (a JSON file of
// their own data on this device, made offline too) and "Import drafts" (a file input that
// reads such an export back). Results and errors show in a toast that never moves the page.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useMyData } from '../../hooks/useMyData';
import './MyDataPanel.css';
import { errorMessage } from '../../error-message';

interface Notice {
  text: string;
  error: boolean;
}

export function MyDataMenuItems() {
  const { download, importDrafts } = useMyData();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!notice || notice.error) return;
    const timer = setTimeout(() => setNotice(null), 8000);
    return () => clearTimeout(timer);
  }, [notice]);

  const fail = (e: unknown) => setNotice({ text: errorMessage(e), error: true });
  async function onDownload() {
    setBusy(true);
    try {
      await download();
      setNotice({ text: 'Your data was downloaded.', error: false });
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }
  async function onImport(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      const count = await importDrafts(file);
      setNotice({ text: count === 1 ? '1 draft imported.' : `${count} drafts imported.`, error: false });
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
      // The same file can be chosen again.
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => void onDownload()} disabled={busy}>
        Download my data
      </button>
      <label className="btn btn-ghost my-data-import">
        Import drafts
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          className="visually-hidden"
          disabled={busy}
          onChange={(e) => void onImport(e)}
        />
      </label>
      <div className="my-data-toast-slot" role="status" aria-live="polite">
        {notice && (
          <p className={`my-data-toast${notice.error ? ' is-error' : ''}`}>
            <span>{notice.text}</span>
            <button type="button" className="btn btn-small btn-ghost" aria-label="Dismiss" onClick={() => setNotice(null)}>
              ✕
            </button>
          </p>
        )}
      </div>
    </>
  );
}
