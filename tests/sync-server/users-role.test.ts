// Roles: `npm run users:role -- <email or uid> <role>` sets the crux_role claim
// through firebase-admin on the run's Auth emulator (keeping the account's other claims), and a
// fresh token of that user shows the role in the server's profile pull; an unknown user or role
// is exit code 1. `npm start`'s demo moderator and admin (scripts/roles.ts seedDemoStaff) sign in
// with the printed password and carry their roles, and seeding twice changes nothing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { PullResponse, ProfileDoc } from '../../shared/sync-protocol.js';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { adminAuth, DEMO_STAFF, seedDemoStaff } from '../../scripts/roles.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, emulatorHost, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The server whose store the command sets the role in (DATA_DIR, and DATABASE_URL on PostgreSQL). */
let storeOf: TestServer;

/** The command as `npm run users:role` runs it, against the run's emulator and the test server's store. */
async function usersRole(...args: string[]): Promise<Run> {
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  try {
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/users-role.ts', ...args], {
      encoding: 'utf8',
      env: {
        ...inherited,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        FIREBASE_PROJECT_ID: PROJECT_ID,
        DATA_DIR: storeOf.dir,
        ...(storeOf.databaseUrl ? { DATABASE_URL: storeOf.databaseUrl } : {}),
      },
    });
    return { code: 0, stdout: run.stdout, stderr: run.stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { idToken: string }).idToken;
}

describe('npm run users:role', () => {
  let server: TestServer;
  let user: TestUser;
  const roleOf = async (token: string) => {
    const res = await apiClient(server.url, token).get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=10');
    expect(res.status).toBe(200);
    return res.body.documents[0]!.role;
  };

  beforeAll(async () => {
    [server, user] = await Promise.all([startTestServer(), createTestUser('Future Mod')]);
    storeOf = server;
  });
  afterAll(() => server?.stop());

  it('sets the claim by e-mail, keeps the other claims, and a fresh token is a moderator', { timeout: 60_000 }, async () => {
    const auth = adminAuth({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(), FIREBASE_PROJECT_ID: PROJECT_ID });
    await auth.setCustomUserClaims(user.uid, { beta: true });
    expect(await roleOf(await user.refresh())).toBe('member');

    const run = await usersRole(user.email, 'moderator');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${user.email} (${user.uid}) is now moderator.`);
    expect((await auth.getUser(user.uid)).customClaims).toEqual({ beta: true, crux_role: 'moderator' });
    expect(await roleOf(await user.refresh())).toBe('moderator');

    // By uid, and back to member.
    const back = await usersRole(user.uid, 'member');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`${user.email} (${user.uid}) is now member.`);
    expect(await roleOf(await user.refresh())).toBe('member');
  });

  it("sets the server's stored role at once: a new admin's content is protected before they come back", { timeout: 60_000 }, async () => {
    const [admin, mod] = await Promise.all([createTestUser('Future Admin'), createTestUser('Eager Mod')]);
    await setTestUserRole(mod, 'moderator');
    const topic = await makeTopic(apiClient(server.url, admin.token));
    expect((await apiClient(server.url, mod.token).get('/users/preferences')).status).toBe(200);
    const storedRole = async () => (await server.db.row<{ role: string }>('SELECT role FROM users WHERE uid = ?', admin.uid))!.role;
    expect(await storedRole()).toBe('member');

    const run = await usersRole(admin.email, 'admin');
    expect(run.code, run.stderr).toBe(0);
    // The admin has made no request since: the server knows the role from the command alone.
    expect(await storedRole()).toBe('admin');
    const removal = await apiClient(server.url, mod.token).post<{ error?: string }>('/moderation/actions', {
      action: 'remove',
      target_type: 'topic',
      target_id: topic.id,
      reason: 'Rule 1',
    });
    expect(removal.status, removal.text).toBe(403);
    expect(removal.body.error).toBe(MSG.cannotActOnAdmin);
    const profile = await apiClient(server.url, admin.token).get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=10');
    expect(profile.body.documents[0]!.role).toBe('admin');

    // And back: the stored role follows the command again.
    expect((await usersRole(admin.uid, 'member')).code).toBe(0);
    expect(await storedRole()).toBe('member');
  });

  it('an unknown user or role is exit code 1 with a clear message, and changes nothing', { timeout: 60_000 }, async () => {
    const nobody = await usersRole('nobody-here@example.com', 'moderator');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('No user with the e-mail nobody-here@example.com.');
    const noUid = await usersRole('no-such-uid', 'admin');
    expect(noUid.code).toBe(1);
    expect(noUid.stderr).toContain('No user with the uid no-such-uid.');

    const emperor = await usersRole(user.email, 'emperor');
    expect(emperor.code).toBe(1);
    expect(emperor.stderr).toContain('Unknown role "emperor": use one of member, moderator, admin.');
    expect(await roleOf(await user.refresh())).toBe('member');

    const usage = await usersRole(user.email);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run users:role -- <email or uid> <member|moderator|admin>');
  });
});

describe("npm start's demo moderator and admin", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    storeOf = server;
  });
  afterAll(() => server?.stop());

  it('sign in with the printed password and carry their roles; seeding again changes nothing', { timeout: 60_000 }, async () => {
    const auth = adminAuth({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(), FIREBASE_PROJECT_ID: PROJECT_ID });
    const lines = await seedDemoStaff(auth);
    expect(lines).toEqual(['Demo moderator: moderator@example.com / crux-moderator', 'Demo admin: admin@example.com / crux-admin']);
    expect(await seedDemoStaff(auth)).toEqual(lines);
    for (const person of DEMO_STAFF) {
      const token = await signIn(person.email, person.password);
      const res = await apiClient(server.url, token).get<PullResponse<ProfileDoc>>('/sync/profile/pull?id=&seq=0&limit=10');
      expect(res.body.documents[0]).toMatchObject({ id: person.uid, role: person.role, display_name: person.displayName });
      expect((await auth.getUser(person.uid)).customClaims).toEqual({ crux_role: person.role });
    }
  });
});
