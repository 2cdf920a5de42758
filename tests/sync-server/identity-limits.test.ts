// The display name a token carries is held to the username
// rules before it is stored, and a disabled or revoked account's token stops working
// well before it expires (the account's state is re-read at most every
// AUTH_STATUS_CACHE_SECONDS, default 30 s).
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { acceptableDisplayName, usernameProblem } from '../../shared/rules/username.js';
import { usernameSchema } from '../../shared/schemas/users.js';
import { createTokenVerifier, DEFAULT_STATUS_CACHE_MS, type AuthBackend } from '../../sync-server/src/auth/verifier.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, emulatorHost } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('the username rule', () => {
  it.each([
    ['plain', 'Ada Lovelace', null],
    ['emoji sequence with a joiner', 'Dev 👩‍💻', null],
    ['accented', 'Zoë Ñúñez', null],
    ['too long', 'x'.repeat(101), 'at most'],
    ['right-to-left override', 'Ada\u202Egnp.exe', 'text-direction'],
    ['isolate', 'Ada\u2067x', 'text-direction'],
    ['zero-width space', 'Ad\u200Ba', 'invisible'],
    ['joiner between letters', 'Ad\u200Da', 'invisible'],
    ['byte-order mark inside', 'Ad\uFEFFa', 'invisible'],
    ['control character', 'Ada\u0007', 'control'],
    ['Hangul filler (looks blank)', '\u3164', 'invisible'],
  ])('%s', (_label, name, problem) => {
    const found = usernameProblem(name);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
    expect(usernameSchema.safeParse(name).success).toBe(problem === null);
    expect(acceptableDisplayName(name)).toBe(problem === null ? name : null);
  });
});

describe('display names from tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it.each([
    ['3,000 characters', 'A'.repeat(3000)],
    ['a right-to-left override', 'Admin\u202E'],
    ['zero-width characters', 'Mode\u200Brator'],
  ])('a name with %s is not stored: the user shows as Anonymous, the request still works', async (_label, name) => {
    const user = await createTestUser(name);
    const api = apiClient(server.url, user.token);
    const topic = await makeTopic(api);
    expect(topic.username).toBeNull();
    const profile = await apiClient(server.url).get(`/users/${user.uid}`);
    expect(profile.status).toBe(200);
    expect(profile.body.display_name).toBeNull();
    expect(await server.db.row('SELECT display_name FROM users WHERE uid = ?', user.uid)).toEqual({ display_name: null });
  });

  it('a valid name is stored as given (trimmed)', async () => {
    const user = await createTestUser('  Grace 👩‍💻  ');
    const topic = await makeTopic(apiClient(server.url, user.token));
    expect(topic.username).toBe('Grace 👩‍💻');
  });
});

describe('disabled and revoked accounts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('against the Auth emulator: once the account is disabled (admin SDK), its token gets 401', async () => {
    emulatorHost();
    const admin = getApps().find((app) => app.name === 'identity-test') ?? initializeApp({ projectId: PROJECT_ID }, 'identity-test');
    const user = await createTestUser('Soon Disabled');
    const api = apiClient(server.url, user.token);
    expect((await api.post('/topics', { title: 'Before', categories: ['Science'] })).status).toBe(201);
    await getAuth(admin).updateUser(user.uid, { disabled: true });
    const after = await api.post('/topics', { title: 'After', categories: ['Science'] });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthenticated');
    expect(await server.db.row("SELECT count(*) AS n FROM topics WHERE title = 'After'")).toEqual({ n: 0 });
  });

  describe('production verifier (signature checked by firebase-admin, account state cached per uid)', () => {
    const token = { uid: 'u1', auth_time: 1_000, name: 'Ada', email: 'ada@example.com' };
    function backend(state: { disabled: boolean; tokensValidAfterTime?: string }) {
      const calls = { getUser: 0 };
      const auth: AuthBackend = {
        verifyIdToken: async () => token,
        getUser: async () => {
          calls.getUser++;
          return { ...state };
        },
      };
      return { auth, calls };
    }

    it('a disabled account is refused within the documented window, without a lookup per request', async () => {
      let now = 0;
      const state = { disabled: false };
      const { auth, calls } = backend(state);
      const verifier = createTokenVerifier(auth, { now: () => now });
      expect(DEFAULT_STATUS_CACHE_MS).toBe(30_000);
      await expect(verifier.verify('t')).resolves.toEqual({
        uid: 'u1',
        name: 'Ada',
        email: 'ada@example.com',
        emailVerified: false,
        role: 'member',
      });
      await verifier.verify('t');
      expect(calls.getUser).toBe(1);
      state.disabled = true;
      now = DEFAULT_STATUS_CACHE_MS; // the window has passed: the account is read again
      await expect(verifier.verify('t')).rejects.toThrow(/disabled/);
    });

    it('a token issued before the sessions were revoked is refused', async () => {
      const { auth } = backend({ disabled: false, tokensValidAfterTime: new Date(2_000_000).toUTCString() });
      await expect(createTokenVerifier(auth).verify('t')).rejects.toThrow(/revoked/);
      const fresh = backend({ disabled: false, tokensValidAfterTime: new Date(500_000).toUTCString() });
      await expect(createTokenVerifier(fresh.auth).verify('t')).resolves.toMatchObject({ uid: 'u1' });
    });

    it('without admin credentials (checkAccountStatus: false) only the signature is checked', async () => {
      const { auth, calls } = backend({ disabled: true });
      await expect(createTokenVerifier(auth, { checkAccountStatus: false }).verify('t')).resolves.toMatchObject({ uid: 'u1' });
      expect(calls.getUser).toBe(0);
    });

    it('Google unreachable: the last known state is used; with none, the token is refused', async () => {
      let now = 0;
      let fail = false;
      const auth: AuthBackend = {
        verifyIdToken: async () => token,
        getUser: async () => {
          if (fail) throw new Error('network down');
          return { disabled: false };
        },
      };
      const verifier = createTokenVerifier(auth, { now: () => now });
      await verifier.verify('t');
      fail = true;
      now = 10 * DEFAULT_STATUS_CACHE_MS;
      await expect(verifier.verify('t')).resolves.toMatchObject({ uid: 'u1' });
      await expect(createTokenVerifier(auth).verify('t')).rejects.toThrow(/network/);
    });
  });
});
