// The note shown when the device's storage could not keep something (data/storage-fallback.ts): the
// stores that moved to memory, gathered into one note, and the plain words that say what is not kept.
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { storageNoteText } from '../../../app/src/components/StorageNote/StorageNote';
import { createStorageShortfalls } from '../../../app/src/data/storage-shortfall';

describe('the storage note', () => {
  it('gathers the stores that moved into one note: the public data, then the user’s own', async () => {
    const shortfalls = createStorageShortfalls();
    expect(await firstValueFrom(shortfalls.note$)).toBeNull();
    shortfalls.add({ failure: 'full', databaseName: 'crux-public', collectionName: 'topics' });
    shortfalls.add({ failure: 'full', databaseName: 'crux-public', collectionName: 'responses' });
    expect(await firstValueFrom(shortfalls.note$)).toEqual({ failure: 'full', publicData: true, userData: false });
    shortfalls.add({ failure: 'full', databaseName: 'crux-user-ada-1x', collectionName: 'plugin-local-documents-_rxdb_internal' });
    expect(await firstValueFrom(shortfalls.note$)).toEqual({ failure: 'full', publicData: true, userData: true });
  });

  it('says why and what is kept only while the tab is open', () => {
    expect(storageNoteText({ failure: 'full', publicData: true, userData: true })).toBe(
      "This device's storage is full: the topics and responses you read, and your drafts, votes and changes not yet sent are kept only while this tab is open. Your changes are still sent while you are online.",
    );
    expect(storageNoteText({ failure: 'unavailable', publicData: true, userData: false })).toBe(
      'This browser does not let Crux keep data on this device (a private window?): the topics and responses you read are kept only while this tab is open. Your changes are still sent while you are online.',
    );
  });
});
