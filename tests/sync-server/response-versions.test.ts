// The edit history of a response on either engine (the server-pg lane runs this file on PostgreSQL):
// an edit of the content keeps the text it replaces as a version, through REST or a sync push alike,
// unless it comes within the grace period after posting; versions are served in REST answers and
// pulled documents while the response is visible, hidden by a moderator's removal (a restore brings
// them back), dropped with the response, and never written by a push.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationLogEntry, Response } from '../../shared/types.js';
import type { PullResponse, PushResponse, ResponseDoc } from '../../shared/sync-protocol.js';
import { EDIT_GRACE_MS, VERSIONS_SHOWN } from '../../shared/rules/edit-history.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('the edit history of a response', () => {
  let server: TestServer;
  let now = new Date('2026-06-01T00:00:00.000Z');
  let ada: TestUser;
  let mod: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  /** Moves the server's clock on, past the grace period unless told otherwise. */
  const later = (ms = EDIT_GRACE_MS + 60_000) => {
    now = new Date(now.getTime() + ms);
    return now.toISOString();
  };
  const read = async (id: string) => (await as().get<Response>(`/responses/${id}`)).body;
  const roots = async (topicId: string) => (await as().get<Response[]>(`/responses?topic_id=${topicId}`)).body;
  const pulled = async (topicId: string, id: string) => {
    const page = await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&id=&seq=0&limit=100`);
    return page.body.documents.find((doc) => doc.id === id)!;
  };
  const edit = async (id: string, content: string) => {
    const res = await as(ada).put<Response>(`/responses/${id}`, { content });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const moderate = async (action: 'remove' | 'restore', id: string) => {
    const res = await as(mod).post<ModerationLogEntry>('/moderation/actions', {
      action,
      target_type: 'response',
      target_id: id,
      reason: 'Rule 1',
    });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    [ada, mod] = await Promise.all([createTestUser('Ada'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
    expect((await as(mod).get('/users/preferences')).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('keeps the replaced text of each edit after the grace period, oldest first, in REST and in the pull', async () => {
    const topic = await makeTopic(as(ada));
    const posted = await makeResponse(as(ada), { topic_id: topic.id, content: 'First words' });
    expect(posted.versions).toEqual([]);

    // Within the grace period: the fix folds into the first version.
    const fixedAt = later(EDIT_GRACE_MS - 60_000);
    expect((await edit(posted.id, 'First words, fixed')).versions).toEqual([]);

    const secondAt = later();
    const second = await edit(posted.id, 'Second words');
    // The first version is the text as it stood once the grace period ended, saved when it was fixed.
    expect(second.versions).toEqual([{ version: 1, content: 'First words, fixed', created_at: fixedAt }]);

    // A change of sources only keeps no text (the text did not change).
    const sourcesAt = later();
    const cited = await as(ada).put<Response>(`/responses/${posted.id}`, {
      content: 'Second words',
      sources: [{ url: 'https://example.org/paper', name: 'Paper' }],
    });
    expect(cited.body.versions).toHaveLength(1);

    const thirdAt = later();
    await edit(posted.id, 'Third words');
    const expected = [
      { version: 1, content: 'First words, fixed', created_at: fixedAt },
      // Saved at the last edit before it was replaced: the change of sources, after the text's own at secondAt.
      { version: 2, content: 'Second words', created_at: sourcesAt },
    ];
    expect(sourcesAt > secondAt).toBe(true);
    expect((await read(posted.id)).versions).toEqual(expected);
    expect((await roots(topic.id)).find((r) => r.id === posted.id)?.versions).toEqual(expected);
    const doc = await pulled(topic.id, posted.id);
    expect(doc).toMatchObject({ content: 'Third words', edited_at: thirdAt });
    expect(doc.versions).toEqual(expected);
  });

  it('keeps versions from sync pushes too, and a push cannot write them', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'Pushed once' });
    later();
    const master = await pulled(topic.id, response.id);
    const forged = [{ version: 1, content: 'Words I never wrote', created_at: '1999-01-01T00:00:00.000Z' }];
    const pushed = await as(ada).post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: master, newDocumentState: { ...master, content: 'Pushed twice', versions: forged } },
    ]);
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.rejected).toEqual([]);
    expect((await pulled(topic.id, response.id)).content).toBe('Pushed twice');
    expect((await pulled(topic.id, response.id)).versions).toEqual([
      { version: 1, content: 'Pushed once', created_at: response.created_at },
    ]);

    // A REST edit that sends the response back whole, versions included, has them ignored.
    later();
    const put = await as(ada).put<Response>(`/responses/${response.id}`, {
      ...(await read(response.id)),
      content: 'Put back whole',
      versions: forged,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.versions.map((v) => v.content)).toEqual(['Pushed once', 'Pushed twice']);

    // A push that changes nothing but the versions changes nothing.
    const doc = await pulled(topic.id, response.id);
    later();
    const again = await as(ada).post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: doc, newDocumentState: { ...doc, versions: forged } },
    ]);
    expect(again.body.rejected).toEqual([]);
    expect((await pulled(topic.id, response.id)).versions).toEqual(doc.versions);
  });

  it('hides the versions while a moderator has removed the response, and a restore brings them back', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'Before the removal' });
    later();
    await edit(response.id, 'Edited before the removal');
    const kept = (await read(response.id)).versions;
    expect(kept).toHaveLength(1);

    later();
    await moderate('remove', response.id);
    const removed = await read(response.id);
    expect(removed.moderation).toBe('removed');
    expect(removed.versions).toEqual([]);
    expect((await roots(topic.id)).find((r) => r.id === response.id)?.versions).toEqual([]);
    const doc = await pulled(topic.id, response.id);
    expect(doc.moderation).toBe('removed');
    expect(doc.versions).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('Before the removal');

    later();
    await moderate('restore', response.id);
    expect((await read(response.id)).versions).toEqual(kept);
    expect((await pulled(topic.id, response.id)).versions).toEqual(kept);
  });

  it('drops the versions with the response', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'Soon gone' });
    later();
    await edit(response.id, 'Soon gone, edited');
    expect(await server.db.rows('SELECT version FROM response_versions WHERE response_id = ?', response.id)).toHaveLength(1);
    expect((await as(ada).del(`/responses/${response.id}`)).status).toBe(204);
    expect(await server.db.rows('SELECT version FROM response_versions WHERE response_id = ?', response.id)).toEqual([]);
    const tombstone = await pulled(topic.id, response.id);
    expect(tombstone._deleted).toBe(true);
    expect(JSON.stringify(tombstone)).not.toContain('Soon gone');
  });

  it(`carries the first version and the last ${VERSIONS_SHOWN}, and keeps them all`, async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id, content: 'Text 0' });
    for (let n = 1; n <= VERSIONS_SHOWN + 2; n++) {
      later();
      await edit(response.id, `Text ${n}`);
    }
    const versions = (await read(response.id)).versions;
    expect(versions).toHaveLength(VERSIONS_SHOWN + 1);
    // However many edits followed, the text as first posted stays in public view.
    expect(versions[0]).toMatchObject({ version: 1, content: 'Text 0' });
    expect(versions[1]).toMatchObject({ version: 3, content: 'Text 2' });
    expect(versions[VERSIONS_SHOWN]).toMatchObject({ version: VERSIONS_SHOWN + 2, content: `Text ${VERSIONS_SHOWN + 1}` });
    expect((await pulled(topic.id, response.id)).versions).toEqual(versions);
    expect(await server.db.rows('SELECT version FROM response_versions WHERE response_id = ?', response.id)).toHaveLength(
      VERSIONS_SHOWN + 2,
    );
  });
});
