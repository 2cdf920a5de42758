// The notifications in the data layer. Marking read offline ("reads queue like any
// write"): the unread count drops at once on the device, nothing reaches the server while offline,
// and back online the queued reads are sent. A fresh sign-in: the list says nothing until the
// first pull has ended, so the page shows loading, never a passing "You have no notifications.".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('notifications in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let a: TestClient;
  let fresh: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(async () => {
    await fresh?.close();
    await server.stop();
  });

  const serverList = async () => (await apiClient(server.url, ada.token).get<Notification[]>(`/notifications/user/${ada.uid}`)).body;
  const unreadOnServer = async () => (await serverList()).filter((n) => !n.is_read).length;

  it('reads made offline drop the unread count at once and reach the server once back online', async () => {
    // Bob replies to Ada's topic twice and to her response once: three unread notifications.
    const adaApi = apiClient(server.url, ada.token);
    const bobApi = apiClient(server.url, bob.token);
    const topic = await makeTopic(adaApi, { title: 'Should reads queue offline?' });
    const root = await makeResponse(adaApi, { topic_id: topic.id, content: 'Like any other write.' });
    await makeResponse(bobApi, { topic_id: topic.id, content: 'First reply.' });
    await makeResponse(bobApi, { topic_id: topic.id, content: 'Second reply.' });
    await makeResponse(bobApi, { topic_id: topic.id, parent_response_id: root.id, content: 'A reply to the response.' });
    expect(await unreadOnServer()).toBe(3);

    a = await startClient(server.url, { user: ada });
    const list = await until(a.data.notifications$(), (items) => items.length === 3);
    await until(a.data.unreadCount$(), (n) => n === 3);

    a.goOffline();
    await a.data.markRead(list[0]!.id);
    await until(a.data.unreadCount$(), (n) => n === 2);
    await a.data.markAllRead();
    await until(a.data.unreadCount$(), (n) => n === 0);
    // Dropped on the device alone: still offline, nothing was sent.
    expect(await unreadOnServer()).toBe(3);

    a.goOnline();
    await expect.poll(unreadOnServer, { timeout: 15_000 }).toBe(0);
    expect((await serverList()).map((n) => n.is_read)).toEqual([true, true, true]);
    // The device agrees (the server's answers did not bring back an unread one).
    expect(await until(a.data.unreadCount$(), (n) => n === 0)).toBe(0);
  });

  it('after a fresh sign-in, gives the list only once it has been pulled: never an empty list first', async () => {
    // Ada has notifications on the server (the test above made three); a new device signs in.
    expect((await serverList()).length).toBe(3);
    await a.close(); // RxDB's open-source limit on collections open at once
    fresh = await startClient(server.url);
    const seen: number[] = [];
    const subscription = fresh.data.notifications$().subscribe((list) => seen.push(list.length));
    try {
      await fresh.data.signIn({ uid: ada.uid, getToken: async () => ada.token });
      await expect.poll(() => seen.at(-1), { timeout: 10_000 }).toBe(3);
      expect(seen[0]).toBe(3);
    } finally {
      subscription.unsubscribe();
    }
    // Someone with no notifications gets their empty list once it has been pulled; offline at once.
    const carl = await createTestUser('Carl');
    await fresh.data.signIn({ uid: carl.uid, getToken: async () => carl.token });
    expect(await until(fresh.data.notifications$(), () => true)).toEqual([]);
    fresh.goOffline();
    await fresh.data.signIn({ uid: bob.uid, getToken: async () => bob.token });
    expect(await until(fresh.data.notifications$(), () => true)).toEqual([]);
  });
});
