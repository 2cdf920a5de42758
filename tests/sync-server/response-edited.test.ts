// The "edited" mark on either engine (the server-pg lane runs this file on PostgreSQL):
// responses.edited_at is set when the author changes the content, quote or sources, through REST or
// a sync push alike, and left alone by votes, replies (counters), moderation and an unchanged push.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationLogEntry, Response } from '../../shared/types.js';
import type { PullResponse, PushResponse, ResponseDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('the edited mark of a response', () => {
  let server: TestServer;
  let now = new Date('2026-05-01T00:00:00.000Z');
  let ada: TestUser;
  let bob: TestUser;
  let mod: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  /** Moves the server's clock on a minute, so each write has a time of its own. */
  const later = () => {
    now = new Date(now.getTime() + 60_000);
    return now.toISOString();
  };
  const read = async (id: string) => (await as().get<Response>(`/responses/${id}`)).body;
  const pulled = async (topicId: string, id: string) => {
    const page = await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&id=&seq=0&limit=100`);
    return page.body.documents.find((doc) => doc.id === id)!;
  };
  const push = (user: TestUser, master: ResponseDoc, next: Partial<ResponseDoc>) =>
    as(user).post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: master, newDocumentState: { ...master, ...next } },
    ]);

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    [ada, bob, mod] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
    expect((await as(mod).get('/users/preferences')).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('is null on a new response, and votes, replies and moderation leave it so', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    expect(response.edited_at).toBeNull();
    later();
    await upvote(as(bob), 'response', response.id);
    await makeResponse(as(bob), { parent_response_id: response.id });
    const hidden = await as(mod).post<ModerationLogEntry>('/moderation/actions', {
      action: 'remove',
      target_type: 'response',
      target_id: response.id,
      reason: 'Rule 1',
    });
    expect(hidden.status, hidden.text).toBe(200);
    const restored = await as(mod).post('/moderation/actions', {
      action: 'restore',
      target_type: 'response',
      target_id: response.id,
      reason: 'ok',
    });
    expect(restored.status, restored.text).toBe(200);
    const after = await read(response.id);
    expect(after).toMatchObject({ score: 1, comment_count: 1, edited_at: null });
    expect((await pulled(topic.id, response.id)).edited_at).toBeNull();
  });

  it('is set by an edit through PUT /api/responses/{id} (content, then the quote, then sources), not by a PUT that changes nothing', async () => {
    const topic = await makeTopic(as(ada));
    const other = await makeResponse(as(bob), { topic_id: topic.id });
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'First words' });

    const same = await as(ada).put<Response>(`/responses/${response.id}`, { content: 'First words' });
    expect(same.status, same.text).toBe(200);
    expect(same.body.edited_at).toBeNull();

    const contentAt = later();
    const edited = await as(ada).put<Response>(`/responses/${response.id}`, { content: 'Second words' });
    expect(edited.body).toMatchObject({ content: 'Second words', edited_at: contentAt });
    expect((await pulled(topic.id, response.id)).edited_at).toBe(contentAt);

    const quoteAt = later();
    expect(
      (await as(ada).put<Response>(`/responses/${response.id}`, { content: 'Second words', quoted_response_id: other.id })).body.edited_at,
    ).toBe(quoteAt);
    const sourcesAt = later();
    const cited = await as(ada).put<Response>(`/responses/${response.id}`, {
      content: 'Second words',
      sources: [{ url: 'https://example.org/paper', name: 'Paper' }],
    });
    expect(cited.body.edited_at).toBe(sourcesAt);

    // A vote afterwards keeps the edit's time.
    later();
    await upvote(as(bob), 'response', response.id);
    expect((await read(response.id)).edited_at).toBe(sourcesAt);
  });

  it('is set by a sync push that changes the content, and not by one that resends the same document', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'Pushed once' });
    const master = await pulled(topic.id, response.id);

    later();
    const unchanged = await push(ada, master, {});
    expect(unchanged.body.rejected).toEqual([]);
    expect((await pulled(topic.id, response.id)).edited_at).toBeNull();

    const pushAt = later();
    // The client's own edited_at is the server's to set: a made-up one is ignored.
    const edit = await push(ada, await pulled(topic.id, response.id), { content: 'Pushed twice', edited_at: '1999-01-01T00:00:00.000Z' });
    expect(edit.body.rejected).toEqual([]);
    expect(await pulled(topic.id, response.id)).toMatchObject({ content: 'Pushed twice', edited_at: pushAt });
    expect((await read(response.id)).edited_at).toBe(pushAt);
  });
});
