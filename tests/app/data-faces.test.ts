// The faces of the data layer built from its members table (app/src/data/deferred.ts): the deferred
// layer forwards each member once the data layer is there, the stand-in fails each by its kind, and
// a call made as the user waits for the sign-in in one place (session.ts).
import { firstValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { CruxData } from '../../app/src/data/index.js';
import { deferredData } from '../../app/src/data/deferred.js';
import { CRUX_DATA_MEMBERS } from '../../app/src/data/deferred.js';
import { createSession } from '../../app/src/data/session.js';
import { unavailableData } from '../../app/src/data/unavailable.js';
import { fakeData, fakeTopic } from '../fixtures/fake-data.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('deferredData', () => {
  it('answers reads and calls from the data layer once it is there, each once', async () => {
    const calls: string[] = [];
    const topic = fakeTopic();
    const real = fakeData({
      uid$: of('uid-ada'),
      topics$: () => {
        calls.push('topics$');
        return of([topic]);
      },
      setStance: async () => void calls.push('setStance'),
    });
    let open!: (data: CruxData) => void;
    const deferred = deferredData(new Promise((resolve) => (open = resolve)));
    const topics = firstValueFrom(deferred.topics$());
    const uid = firstValueFrom(deferred.uid$);
    const stance = deferred.setStance('t1', 'agree');
    await tick();
    expect(calls).toEqual([]);
    open(real);
    expect(await topics).toEqual([topic]);
    expect(await uid).toBe('uid-ada');
    await stance;
    expect(calls.sort()).toEqual(['setStance', 'topics$']);
  });

  it('switches the reads waiting for the data layer one task at a time, and a later read at once', async () => {
    const subscribed: number[] = [];
    const real = fakeData({
      topic$: (topicId) => {
        subscribed.push(Number(topicId));
        return of(null);
      },
    });
    let open!: (data: CruxData) => void;
    const ready = new Promise<CruxData>((resolve) => (open = resolve));
    const deferred = deferredData(ready);
    const reads = [1, 2, 3].map((n) => deferred.topic$(String(n)).subscribe());
    open(real);
    await ready;
    await Promise.resolve();
    // The data layer is there, but no waiting read has switched within the task that opened it.
    expect(subscribed).toEqual([]);
    for (let turn = 0; turn < 10 && subscribed.length < 3; turn++) await tick();
    expect(subscribed).toEqual([1, 2, 3]);
    // A read subscribed once the data layer is open does not wait for a task.
    deferred.topic$('4').subscribe().unsubscribe();
    expect(subscribed).toEqual([1, 2, 3, 4]);
    reads.forEach((read) => read.unsubscribe());
  });

  it('has every member of the table', () => {
    const deferred = deferredData(new Promise(() => {}));
    for (const key of Object.keys(CRUX_DATA_MEMBERS)) expect(deferred[key as keyof CruxData], key).toBeDefined();
  });
});

describe('unavailableData', () => {
  const data = unavailableData('Storage is blocked.');
  it('fails reads and rejects calls with the reason; nobody is signed in and there is nothing to close', async () => {
    await expect(firstValueFrom(data.topics$())).rejects.toThrow('Storage is blocked.');
    await expect(firstValueFrom(data.status$)).rejects.toThrow('Storage is blocked.');
    await expect(data.createTopic({ title: 'Tea or coffee?', category: 'Science' })).rejects.toThrow('Storage is blocked.');
    await expect(data.signIn({ uid: 'uid-ada', getToken: async () => null })).rejects.toThrow('Storage is blocked.');
    expect(await firstValueFrom(data.uid$)).toBeNull();
    expect(await firstValueFrom(data.score$())).toBeNull();
    await expect(data.signOut()).resolves.toBeUndefined();
    await expect(data.close()).resolves.toBeUndefined();
  });
});

describe('session: the one wait for the sign-in', () => {
  it('a call made as the user waits until the app knows who is signed in, then for the sign-in it started', async () => {
    let know!: () => void;
    const session = createSession(new Promise<void>((resolve) => (know = resolve)));
    const log: string[] = [];
    const data = session.asUser<Pick<CruxData, 'setStance' | 'openTopic'>>({
      setStance: async () => void log.push('stance'),
      openTopic: async () => void log.push('open topic'),
    });
    const stance = data.setStance('t1', 'agree');
    // Not made as the user: at once.
    await data.openTopic('t1');
    await tick();
    expect(log).toEqual(['open topic']);
    // What a reload does: Firebase restores the user, and followSession starts the sign-in.
    let opened!: () => void;
    know();
    void session.serially(() => new Promise<void>((resolve) => (opened = resolve)).then(() => void log.push('signed in')));
    await tick();
    expect(log).toEqual(['open topic']);
    opened();
    await stance;
    expect(log).toEqual(['open topic', 'signed in', 'stance']);
  });

  it('once known, a call waits for the sign-in under way when it was made, not for a later sign-out', async () => {
    const session = createSession();
    const log: string[] = [];
    const data = session.asUser<Pick<CruxData, 'toggleVote'>>({ toggleVote: async () => (log.push('vote'), true) });
    await tick();
    const vote = data.toggleVote('topic', 't1');
    const signOut = session.serially(async () => {
      await tick();
      log.push('signed out');
    });
    await Promise.all([vote, signOut]);
    expect(log).toEqual(['vote', 'signed out']);
  });
});
