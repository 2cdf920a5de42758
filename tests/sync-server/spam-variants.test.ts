// The spam repeat check sees through trivial variants (punctuation, invisible and look-alike
// letters, width, accents, counters) and meets edits as it meets creates, over REST and sync push,
// on both engines (the server-pg lane runs this file on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_DEFAULTS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import type { PullResponse, PushResponse, ResponseDoc } from '../../shared/sync-protocol.js';
import { normalizedForSpam } from '../../sync-server/src/domain/limits.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { uniqueId } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const { spamRepeats: REPEATS } = MODERATION_DEFAULTS;
const TEXT = 'Join my channel now';
const VARIANTS = [
  'Join my channel now!', // a trailing "!"
  'Join my\u200B channel now', // a zero-width space
  'Join my ch\u0430nnel now', // a Cyrillic "а"
  'Join my chan\u00ADnel now', // a soft hyphen
  '\uFF2Aoin my channel now', // a fullwidth "Ｊ"
  'Join my cha\u0301nnel now', // a combining acute accent
  'Join my channel now 2', // a counter
  'Join my channel n\u03BFw', // a Greek "ο"
];

describe('the spam repeat check: variants, edits and sync push', () => {
  let server: TestServer;
  let host: TestUser;
  let poster: TestUser;
  let topicId: string;
  const as = (user: TestUser) => apiClient(server.url, user.token);
  const post = (content: string) =>
    as(poster).post<{ id: string; error?: string }>('/responses', { topic_id: topicId, type: 'for', content });

  /** Makes the account old (created two days ago) with points: the new-account limits stay out of the way. */
  async function age(user: TestUser) {
    expect((await as(user).get('/users/preferences')).status).toBe(200);
    await server.db.run(
      'UPDATE users SET created_at = ?, points = ? WHERE uid = ?',
      new Date(Date.now() - 48 * 3_600_000).toISOString(),
      10,
      user.uid,
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ moderation: true });
    [host, poster] = await Promise.all([createTestUser('Spam Host'), createTestUser('Spam Poster')]);
    await age(host);
    await age(poster);
    topicId = (await as(host).post('/topics', { title: 'Where the spam goes', categories: ['Science'] })).body.id;
    for (let i = 0; i < REPEATS; i++) expect((await post(TEXT)).status).toBe(201);
  });
  afterAll(() => server?.stop());

  it('every variant normalizes to the text itself; other texts do not', () => {
    for (const variant of VARIANTS) expect(normalizedForSpam(variant), JSON.stringify(variant)).toBe(normalizedForSpam(TEXT));
    expect(normalizedForSpam('Join my club now')).not.toBe(normalizedForSpam(TEXT));
    expect(normalizedForSpam('2024 was a year')).not.toBe(normalizedForSpam('2025 was a year'));
  });

  it(`REST: once posted ${REPEATS} times, each of ${VARIANTS.length} variants is refused; another text is not`, async () => {
    for (const variant of VARIANTS) {
      const res = await post(variant);
      expect(res.status, JSON.stringify(variant)).toBe(400);
      expect(res.body.error).toBe(MSG.spamRepeat);
    }
    expect((await post('Join my club tomorrow')).status).toBe(201);
  });

  it('edits: 5 other responses edited to the text are refused (REST and sync push); an unchanged edit passes', async () => {
    const others: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(`A different point number ${uniqueId()}`);
      expect(res.status).toBe(201);
      others.push(res.body.id);
    }
    for (const [i, id] of others.entries()) {
      const res = await as(poster).put<{ error?: string }>(`/responses/${id}`, { content: VARIANTS[i]! });
      expect(res.status, VARIANTS[i]).toBe(400);
      expect(res.body.error).toBe(MSG.spamRepeat);
    }
    const pulled = await as(poster).get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&id=&seq=0&limit=1000`);
    const doc = pulled.body.documents.find((d) => d.id === others[0])!;
    const pushed = await as(poster).post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: doc, newDocumentState: { ...doc, content: `${TEXT}!!` } },
    ]);
    expect(pushed.body.rejected).toMatchObject([{ id: doc.id, status: 400, error: MSG.spamRepeat }]);
    // Resending one of the three as it is (a retried sync push) is no new repeat.
    const original = pulled.body.documents.find((d) => d.content === TEXT)!;
    const resent = await as(poster).post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: original, newDocumentState: original },
    ]);
    expect(resent.body.rejected).toEqual([]);
    expect((await as(poster).put(`/responses/${original.id}`, { content: TEXT })).status).toBe(200);
  });

  it('sync push: a new response with a variant is refused', async () => {
    const doc = {
      id: uniqueId('r'),
      topic_id: topicId,
      parent_response_id: null,
      quoted_response_id: null,
      type: 'for',
      content: VARIANTS[2]!,
      sources: [],
      creator_uid: '',
      username: null,
      created_at: '',
      updated_at: '',
      edited_at: null,
      versions: [],
      score: 0,
      comment_count: 0,
      delta_count: 0,
      upvotes_agree: 0,
      upvotes_disagree: 0,
      downvotes_agree: 0,
      downvotes_disagree: 0,
      moderation: null,
      moderation_reason: null,
      seq: 0,
      _deleted: false,
    } satisfies ResponseDoc;
    const pushed = await as(poster).post<PushResponse<ResponseDoc>>('/sync/responses/push', [{ newDocumentState: doc }]);
    expect(pushed.body.rejected).toMatchObject([{ id: doc.id, status: 400, error: MSG.spamRepeat }]);
  });
});
