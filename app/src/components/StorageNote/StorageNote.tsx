// The plain note shown when this device's storage could not keep something: the app goes on in
// memory (data/storage-fallback.ts), and the reader is told what will be gone when the tab closes.
import { useStorageNote, type StorageNote as Note } from '../../hooks/useStorageNote';
import './StorageNote.css';

export function storageNoteText(note: Note): string {
  const what = [note.publicData && 'the topics and responses you read', note.userData && 'your drafts, votes and changes not yet sent']
    .filter(Boolean)
    .join(', and ');
  const why =
    note.failure === 'unavailable'
      ? 'This browser does not let Crux keep data on this device (a private window?)'
      : "This device's storage is full";
  return `${why}: ${what} are kept only while this tab is open. Your changes are still sent while you are online.`;
}

export function StorageNote() {
  const note = useStorageNote();
  if (!note) return null;
  return (
    <div className="storage-note" role="status" data-testid="storage-note">
      {storageNoteText(note)}
    </div>
  );
}
