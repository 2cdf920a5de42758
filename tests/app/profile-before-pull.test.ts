// A preference changed on a device that has never received its profile (a new phone, offline) is
// refused, not written over defaults: the app used to make up a profile with the defaults and send
// it, which replaced the settings chosen on the person's other device.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_PUSH_SETTINGS } from '../../shared/push.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('preferences before the profile is on the device', () => {
  let server: TestServer;
  let ada: TestUser;
  // One device open at a time (RxDB's open-source build allows 13 collections in one process).
  let device: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    // The server records a user at their first signed-in request.
    expect((await apiClient(server.url, ada.token).get('/follows')).status).toBe(200);
  });
  afterAll(async () => {
    await device?.close();
    await server.stop();
  });

  it("refuses the change and keeps the other device's settings", async () => {
    const laptop = await startClient(server.url, { user: ada });
    device = laptop;
    await until(laptop.data.pushSettings$(), (settings) => settings !== null);
    const chosen = { ...DEFAULT_PUSH_SETTINGS, replies: false };
    await laptop.data.setPushSettings(chosen);
    await until(laptop.data.status$, (status) => status.online && status.pending === 0, 15_000);
    await laptop.close();
    device = undefined;

    const phone = await startClient(server.url, { user: ada, startOffline: true });
    device = phone;
    await expect(phone.data.setWeeklySummary(false)).rejects.toThrow(MSG.preferencesUpdateFailed);
    await expect(phone.data.setPushSettings(DEFAULT_PUSH_SETTINGS)).rejects.toThrow(MSG.preferencesUpdateFailed);
    phone.goOnline();
    // Pulled as the server has it: the laptop's choice, and the weekly summary still on.
    expect(await until(phone.data.pushSettings$(), (settings) => settings !== null)).toEqual(chosen);
    expect(await until(phone.data.preferences$(), (preferences) => preferences !== null)).toEqual({ receive_weekly_summary: true });
    await until(phone.data.status$, (status) => status.online && status.pending === 0, 15_000);
    // Nothing the phone did reached the server.
    const stored = await server.db.row<{ receive_weekly_summary: number; push_settings: string }>(
      'SELECT receive_weekly_summary, push_settings FROM users WHERE uid = ?',
      ada.uid,
    );
    expect(Number(stored!.receive_weekly_summary)).toBe(1);
    expect(JSON.parse(stored!.push_settings)).toEqual(chosen);
  });
});
