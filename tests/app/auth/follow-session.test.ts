import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '../../../app/src/auth/session';
import type { SessionUser } from '../../../app/src/data/index.js';
import { followSession } from '../../../app/src/auth/follow-session';
import { fakeData } from '../../fixtures/fake-data';

// A hand-driven Firebase session: the test publishes states as onAuthStateChanged would.
const auth = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const held: { state: SessionState; listeners: Set<() => void>; publish(state: SessionState): void } = {
    state: { ready: false, user: null, profilePending: false },
    listeners,
    publish(state) {
      held.state = state;
      listeners.forEach((listener) => listener());
    },
  };
  return held;
});
vi.mock('../../../app/src/auth/session', () => ({
  getSession: () => auth.state,
  subscribeSession: (listener: () => void) => {
    auth.listeners.add(listener);
    return () => auth.listeners.delete(listener);
  },
  getCurrentFirebaseUser: () => auth.state.user,
  getToken: async (forceRefresh = false) => (forceRefresh ? 'fresh-token' : 'token'),
  lostUid: () => null,
}));

const ada = { uid: 'uid-ada', email: 'ada@example.org', displayName: 'Ada' };

beforeEach(() => {
  auth.listeners.clear();
  auth.state = { ready: false, user: null, profilePending: false };
});

describe('followSession', () => {
  it('waits for Firebase to restore the user, then opens their data once per user', async () => {
    const signIn = vi.fn(async (_user: SessionUser) => {});
    const signOut = vi.fn(async () => {});
    const data = fakeData({ signIn, signOut });
    followSession(data);
    expect(signIn).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    auth.publish({ ready: true, user: ada, profilePending: false });
    // A profile change (new display name) republishes the same user: nothing to reopen.
    auth.publish({ ready: true, user: { ...ada, displayName: 'Ada L.' }, profilePending: false });
    expect(signIn).toHaveBeenCalledOnce();
    const [user] = signIn.mock.calls[0]!;
    expect(user.uid).toBe('uid-ada');
    expect(await user.getToken(true)).toBe('fresh-token');
    expect(await user.getToken()).toBe('token');
  });

  it("closes the user's data at sign-out and stops following when unsubscribed", () => {
    const signIn = vi.fn(async (_user: SessionUser) => {});
    const signOut = vi.fn(async () => {});
    const data = fakeData({ signIn, signOut });
    auth.state = { ready: true, user: ada, profilePending: false };
    const stop = followSession(data);
    expect(signIn).toHaveBeenCalledOnce();
    auth.publish({ ready: true, user: null, profilePending: false });
    expect(signOut).toHaveBeenCalledOnce();
    stop();
    auth.publish({ ready: true, user: ada, profilePending: false });
    expect(signIn).toHaveBeenCalledOnce();
  });
});
