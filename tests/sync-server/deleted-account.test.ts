// Deleted accounts: once an account is deleted, firebase-admin's getUser answers
// auth/user-not-found. The verifier must refuse it, not fall back to the account's last known state
// (kept for when Google cannot be reached), or the deleted account's token works until it expires.
// Real Auth emulator, a verifier that remembers verified tokens (as in production) with a short
// account-state cache, and the real server answering 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { createFirebaseVerifier, TokenRefused } from '../../sync-server/src/auth/verifier.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, deleteTestUser, emulatorHost } from '../fixtures/auth.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const STATUS_CACHE_MS = 200;

describe('a deleted account', () => {
  let server: TestServer;
  beforeAll(async () => {
    emulatorHost();
    // maxCachedTokens: the emulator's verifyIdToken would itself look the deleted user up on every
    // call; production remembers a verified token until it expires, so only getUser can notice.
    const verifier = createFirebaseVerifier(PROJECT_ID, undefined, { statusCacheMs: STATUS_CACHE_MS, maxCachedTokens: 100 });
    server = await startTestServer({ verifier });
  });
  afterAll(() => server.stop());

  it('is refused (401) once the account-state cache runs out, and stays refused', async () => {
    const eve = await createTestUser('Eve Deleted');
    const api = apiClient(server.url, eve.token);
    expect((await api.post('/users/preferences', { receive_weekly_summary: true })).status).toBe(200);
    await deleteTestUser(eve);

    // Within a generous wait (the cache is 200 ms), the old token is refused.
    let status = 200;
    for (let i = 0; i < 100 && status !== 401; i++) {
      await new Promise((resolve) => setTimeout(resolve, STATUS_CACHE_MS));
      status = (await api.get('/users/preferences')).status;
    }
    expect(status).toBe(401);
    // Writes too, and not only once: the refusal is not cached as a good state.
    expect((await api.post('/users/preferences', { receive_weekly_summary: false })).status).toBe(401);
    expect((await api.get('/users/preferences')).status).toBe(401);
  });

  it('the verifier says why', async () => {
    const verifier = createFirebaseVerifier(PROJECT_ID, undefined, { statusCacheMs: 1, maxCachedTokens: 100 });
    const mal = await createTestUser('Mal Deleted');
    await verifier.verify(mal.token);
    await deleteTestUser(mal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(verifier.verify(mal.token)).rejects.toThrow(TokenRefused);
    await expect(verifier.verify(mal.token)).rejects.toThrow('The account was deleted.');
  });
});
