// Roles: the crux_role custom claim, read from the verified token (or the account's
// current claims), reaches the caller's synced profile; an unknown value is a member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullResponse, ProfileDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('roles', () => {
  let server: TestServer;
  let mod: TestUser;
  let member: TestUser;
  const as = (user: TestUser) => apiClient(server.url, user.token);
  const profileOf = async (user: TestUser) => {
    const res = await as(user).get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=10');
    expect(res.status).toBe(200);
    return res.body.documents[0]!;
  };

  beforeAll(async () => {
    server = await startTestServer();
    [mod, member] = await Promise.all([createTestUser('Mod'), createTestUser('Member')]);
    await setTestUserRole(mod, 'moderator');
  });
  afterAll(() => server.stop());

  it("a moderator's claim reaches their profile; a member without a claim is a member", async () => {
    expect((await profileOf(mod)).role).toBe('moderator');
    expect((await profileOf(member)).role).toBe('member');
  });

  it("a user's public page says their role, so staff are shown as such", async () => {
    await profileOf(mod);
    expect((await as(member).get<{ role: string }>(`/users/${mod.uid}`)).body.role).toBe('moderator');
    expect((await as(mod).get<{ role: string }>(`/users/${member.uid}`)).body.role).toBe('member');
  });

  it('an unknown claim value is a member', async () => {
    const odd = await createTestUser('Odd');
    const res = await fetch(
      `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/demo-crux/accounts:update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: odd.uid, customAttributes: JSON.stringify({ crux_role: 'emperor' }) }),
      },
    );
    expect(res.ok).toBe(true);
    await odd.refresh();
    expect((await profileOf(odd)).role).toBe('member');
  });

  it('a revoked role is seen at the next request with a fresh token', async () => {
    const temp = await createTestUser('Temp');
    await setTestUserRole(temp, 'admin');
    expect((await profileOf(temp)).role).toBe('admin');
    await setTestUserRole(temp, 'member');
    expect((await profileOf(temp)).role).toBe('member');
  });
});
