// Drafts follow the person on the device. The identity provider can give the same person a new uid
// (a development Auth emulator forgets every account when it restarts): the text they typed under
// the old uid, not posted, is offered back to whoever is at the composer for the same place, signed
// in under another uid or signed out, and is deleted only when restored and posted, or discarded.
// The real data layer over RxDB and fake-indexeddb, offline (no server is asked anything).
import { describe, expect, it } from 'vitest';
import { startClient, type ClientOptions, type TestClient } from '../fixtures/client.js';

type User = NonNullable<ClientOptions['user']>;
const account = (uid: string): User => ({
  uid,
  email: `${uid}@example.com`,
  password: 'unused',
  name: uid,
  token: 'unused',
  refresh: async () => 'unused',
  refreshToken: 'unused',
});
const BEFORE = account('uid-before-restart');
const AFTER = account('uid-after-restart');
const OFFLINE = 'http://127.0.0.1:9';
const KEY = 'reply:r-1';

/** A device where BEFORE typed a reply (not posted) and whose session then ended (no "remove my data"). */
async function deviceWithLostDraft(): Promise<TestClient> {
  const device = await startClient(OFFLINE, { user: BEFORE, startOffline: true });
  await device.data.saveDraft(KEY, 'Half a reply, typed before the restart');
  await device.data.signOut();
  return device;
}

const signIn = (device: TestClient, user: User) => device.data.signIn({ uid: user.uid, getToken: async () => user.token });

describe('a draft kept under another account', () => {
  it('is offered to the next account on the device for the same place only, and to a visitor', async () => {
    const device = await deviceWithLostDraft();
    expect(await device.data.unsentDrafts(KEY)).toEqual([
      { owner: BEFORE.uid, key: KEY, text: 'Half a reply, typed before the restart', updated_at: expect.any(String) },
    ]);
    await signIn(device, AFTER);
    expect(await device.data.loadDraft(KEY)).toBeNull();
    expect((await device.data.unsentDrafts(KEY)).map((d) => d.owner)).toEqual([BEFORE.uid]);
    expect(await device.data.unsentDrafts('reply:r-2')).toEqual([]);
    // Not offered to the account that typed it: that one gets it back as its own.
    await signIn(device, BEFORE);
    expect(await device.data.unsentDrafts(KEY)).toEqual([]);
    expect((await device.data.loadDraft(KEY))?.text).toBe('Half a reply, typed before the restart');
    await device.close();
  });

  it('stays offered across a reload until discarded, and a discard is for good', async () => {
    const first = await deviceWithLostDraft();
    await first.close();
    const reloaded = await startClient(OFFLINE, { user: AFTER, startOffline: true, indexedDB: first.indexedDB, prefix: first.prefix });
    expect(await reloaded.data.unsentDrafts(KEY)).toHaveLength(1);
    await reloaded.data.discardDraft(BEFORE.uid, KEY);
    expect(await reloaded.data.unsentDrafts(KEY)).toEqual([]);
    await reloaded.close();
    const again = await startClient(OFFLINE, { user: BEFORE, startOffline: true, indexedDB: first.indexedDB, prefix: first.prefix });
    expect(await again.data.loadDraft(KEY)).toBeNull();
    await again.close();
  });

  it('restored, becomes the new account’s draft, and posting it (its deletion) leaves none behind', async () => {
    const device = await deviceWithLostDraft();
    await signIn(device, AFTER);
    await device.data.adoptDraft(BEFORE.uid, KEY, 'Half a reply, typed before the restart');
    expect((await device.data.loadDraft(KEY))?.text).toBe('Half a reply, typed before the restart');
    expect(await device.data.unsentDrafts(KEY)).toEqual([]);
    expect((await device.data.exportMyData()).drafts.map((d) => d.key)).toEqual([KEY]);
    // What the composer does when the reply is posted.
    await device.data.deleteDraft(KEY);
    expect(await device.data.loadDraft(KEY)).toBeNull();
    await device.data.signOut();
    expect(await device.data.unsentDrafts(KEY)).toEqual([]);
    await device.close();
  });

  it('is kept when the next person removes their own data on logout, which takes only theirs', async () => {
    const device = await deviceWithLostDraft();
    await signIn(device, AFTER);
    await device.data.saveDraft('topic:new', 'A title of the next person');
    await device.data.signOut({ removeData: true, byUser: true });
    expect((await device.data.unsentDrafts(KEY)).map((d) => d.owner)).toEqual([BEFORE.uid]);
    expect(await device.data.unsentDrafts('topic:new')).toEqual([]);
    await device.close();
  });
});

describe('a draft of an account that logged out keeping its data', () => {
  it('is offered to nobody else, and is offered again once that account has signed in and been lost', async () => {
    const device = await startClient(OFFLINE, { user: BEFORE, startOffline: true });
    await device.data.saveDraft(KEY, 'Mine, for my next sign-in');
    await device.data.signOut({ byUser: true });
    expect(await device.data.unsentDrafts(KEY)).toEqual([]);
    await signIn(device, AFTER);
    expect(await device.data.unsentDrafts(KEY)).toEqual([]);
    await device.data.signOut({ byUser: true });

    await signIn(device, BEFORE);
    expect((await device.data.loadDraft(KEY))?.text).toBe('Mine, for my next sign-in');
    // This time the session ends without a logout (the identity provider lost the account).
    await device.data.signOut();
    await signIn(device, AFTER);
    expect((await device.data.unsentDrafts(KEY)).map((d) => d.text)).toEqual(['Mine, for my next sign-in']);
    await device.close();
  });
});
