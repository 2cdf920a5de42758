// Each response's citation keeps the name and description ITS author
// gave; the shared catalogue (one row per URL) only suggests the most-cited name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullResponse, ResponseDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('citation names belong to the citing author', () => {
  let server: TestServer;
  let troll: TestUser;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    [troll, ada, bob] = await Promise.all([createTestUser('Troll'), createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(() => server.stop());

  it("a later author's name and description are theirs, in REST and in sync; the first citer's stay theirs", async () => {
    const url = `https://who.example/${Date.now()}`;
    const topic = await makeTopic(apiClient(server.url, ada.token));
    const first = await makeResponse(apiClient(server.url, troll.token), {
      topic_id: topic.id,
      sources: [{ url, name: 'WHO admits everything is fake', description: 'lol' }],
    });
    const second = await makeResponse(apiClient(server.url, ada.token), {
      topic_id: topic.id,
      sources: [{ url, name: 'World Health Organization', description: 'Fact sheet' }],
    });
    expect(second.sources).toEqual([{ id: expect.any(String), url, name: 'World Health Organization', description: 'Fact sheet' }]);
    expect(first.sources[0]).toMatchObject({ url, name: 'WHO admits everything is fake', description: 'lol' });
    expect(second.sources[0]!.id).toBe(first.sources[0]!.id); // still one catalogue row per URL

    const anon = apiClient(server.url);
    expect((await anon.get(`/responses/${second.id}`)).body.sources).toEqual(second.sources);
    expect((await anon.get(`/responses/${first.id}`)).body.sources[0].name).toBe('WHO admits everything is fake');
    const roots = (await anon.get(`/responses?topic_id=${topic.id}`)).body as { id: string; sources: { name: string }[] }[];
    expect(roots.find((r) => r.id === second.id)!.sources[0]!.name).toBe('World Health Organization');

    const pulled = await anon.get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=100`);
    const doc = pulled.body.documents.find((d) => d.id === second.id)!;
    expect(doc.sources).toEqual([{ url, name: 'World Health Organization', description: 'Fact sheet' }]);

    // An edit changes only the editor's own citation.
    const edited = await apiClient(server.url, ada.token).put(`/responses/${second.id}`, {
      content: 'Edited',
      sources: [{ url, name: 'WHO fact sheet', description: null }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.sources[0]).toMatchObject({ url, name: 'WHO fact sheet', description: null });
    expect((await anon.get(`/responses/${first.id}`)).body.sources[0].name).toBe('WHO admits everything is fake');
  });

  it('the catalogue shows one entry per URL, named by the most-cited live citation', async () => {
    const url = `https://catalogue.example/${Date.now()}`;
    const topic = await makeTopic(apiClient(server.url, ada.token));
    const bad = await makeResponse(apiClient(server.url, troll.token), { topic_id: topic.id, sources: [{ url, name: 'Fake news' }] });
    await makeResponse(apiClient(server.url, ada.token), { topic_id: topic.id, sources: [{ url, name: 'Real name' }] });
    await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, sources: [{ url, name: 'Real name' }] });
    const anon = apiClient(server.url);
    const entries = () =>
      anon.get('/sources').then((res) => (res.body as { url: string; name: string | null }[]).filter((s) => s.url === url));
    expect(await entries()).toEqual([expect.objectContaining({ url, name: 'Real name' })]);

    // A citation without a name never blanks anyone's; the troll's deleted citation no longer counts.
    await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, sources: [{ url }] });
    expect((await apiClient(server.url, troll.token).del(`/responses/${bad.id}`)).status).toBe(204);
    expect(await entries()).toEqual([expect.objectContaining({ url, name: 'Real name' })]);
  });

  it('the suggested name is the one most authors gave: one author citing a URL many times does not decide it', async () => {
    const url = `https://distinct-authors.example/${Date.now()}`;
    const topic = await makeTopic(apiClient(server.url, ada.token));
    const cite = (user: TestUser, name: string, description: string) =>
      makeResponse(apiClient(server.url, user.token), { topic_id: topic.id, sources: [{ url, name, description }] });
    // Three citations by one person against two by two people.
    for (let i = 0; i < 3; i++) await cite(troll, 'Fake news', 'Made up');
    await cite(ada, 'Real name', 'The real one');
    await cite(bob, 'Real name', 'The real one');
    const entry = (
      (await apiClient(server.url).get('/sources')).body as { url: string; name: string | null; description: string | null }[]
    ).find((s) => s.url === url);
    expect(entry).toEqual(expect.objectContaining({ name: 'Real name', description: 'The real one' }));
  });
});
