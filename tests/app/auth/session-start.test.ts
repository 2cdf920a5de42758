// @vitest-environment jsdom
// First load: a visitor's page never loads the Firebase SDK by itself (it is the costliest
// script of a first visit after the data layer): it is signed out at once, and the SDK loads for a
// sign-in or when another tab signs in. Someone signed in on this device gets it after `after`.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const firebase = vi.hoisted(() => ({ loads: 0, listeners: [] as ((user: unknown) => void)[] }));
vi.mock('../../../app/src/auth/firebase', () => ({
  getAuthInstance: async () => {
    firebase.loads += 1;
    return { onAuthStateChanged: (listener: (user: unknown) => void) => void firebase.listeners.push(listener), currentUser: null };
  },
}));

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.resetModules();
  firebase.loads = 0;
  firebase.listeners = [];
  localStorage.clear();
});

describe('starting the session', () => {
  it('a visitor is signed out at once and the SDK is not loaded until a sign-in needs it', async () => {
    const session = await import('../../../app/src/auth/session');
    session.startSession(Promise.resolve());
    expect(session.getSession()).toEqual({ ready: true, user: null, profilePending: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(firebase.loads).toBe(0);

    // A sign-in follows Firebase's user first, once however often it is asked.
    await Promise.all([session.followFirebase(), session.followFirebase()]);
    expect(firebase.listeners).toHaveLength(1);
    firebase.listeners[0]!({ uid: 'uid-ada', email: 'ada@example.org', displayName: 'Ada' });
    expect(session.getSession().user).toEqual({ uid: 'uid-ada', email: 'ada@example.org', displayName: 'Ada' });
    // The hint holds the uid: a reload that Firebase does not restore knows whose session ended.
    expect(localStorage.getItem('crux.signedIn')).toBe('uid-ada');
  });

  it("a visitor's page follows Firebase when another tab signs in", async () => {
    const session = await import('../../../app/src/auth/session');
    session.startSession(Promise.resolve());
    window.dispatchEvent(new StorageEvent('storage', { key: 'crux.signedIn', newValue: '1' }));
    await tick();
    expect(firebase.listeners).toHaveLength(1);
  });

  it('someone signed in on this device: the SDK loads after `after`, and the session waits for it', async () => {
    localStorage.setItem('crux.signedIn', '1');
    const session = await import('../../../app/src/auth/session');
    let paint!: () => void;
    session.startSession(new Promise<void>((resolve) => (paint = resolve)));
    expect(session.getSession().ready).toBe(false);
    await tick();
    expect(firebase.loads).toBe(0);
    paint();
    await vi.waitFor(() => expect(firebase.listeners).toHaveLength(1), { timeout: 3_000 });
  });
});
