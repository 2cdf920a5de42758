// The main debate flow in real Chromium against the real server: create a topic,
// answer for/against/neutral, reply three levels deep, quote and jump, sources,
// votes, edit, delete a subtree, delete the topic; each step checked on screen
// and through the REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { createTopicThroughSearchBox, postInComposer, responseItem, signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let alice: TestUser;
/** Writes are local first: the server sees them when replication has pushed. */
const SYNCED = { timeout: 15_000, interval: 200 };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, alice] = await Promise.all([startServer(), launchBrowser(), createTestUser('Alice Debater')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('debating a topic', () => {
  it('creates, answers, nests, quotes, sources, votes, edits and deletes', { timeout: 120_000 }, async () => {
    const api = apiClient(server.url, () => alice.token);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByText('No topics yet. Create one above!').waitFor();
    await signInThroughModal(page, alice);

    // Create-topic validations, then create from the search box.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Topic title cannot be empty.').waitFor();
    await page.getByLabel('Search or create a topic').fill('Should cities ban cars downtown?');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Please select a category.').waitFor();
    const topicId = await createTopicThroughSearchBox(page, 'Should cities ban cars downtown?', 'Society');
    await expect
      .poll(async () => (await api.get(`/topics/${topicId}`)).body, SYNCED)
      .toMatchObject({
        title: 'Should cities ban cars downtown?',
        categories: ['Society'],
        creator_uid: alice.uid,
        username: 'Alice Debater',
      });
    await page.getByText('No responses yet.').waitFor();
    await page.getByText('0 responses').waitFor();

    // Answer for, against and neutral (type chosen by Agree / Disagree / Discuss).
    await page.getByRole('button', { name: 'Add a response' }).count(); // form exists
    const root = page.getByRole('form', { name: 'Add a response' });
    // One line until used: chosen, it shows its type, tools and Post.
    await root.getByRole('textbox').focus();
    await root.getByRole('button', { name: 'Post response' }).click();
    await root.getByText('Content cannot be empty.').waitFor();
    expect(await root.getByRole('textbox').getAttribute('placeholder')).toBe('Agree with "Should cities ban cars downtown?"');
    await postInComposer(page, 'Add a response', 'Cleaner air and safer streets for everyone.');
    await page.locator('.topic-actions').getByRole('button', { name: 'Disagree', exact: true }).click();
    await postInComposer(page, 'Add a response', 'Deliveries and disabled people need access.');
    await page.locator('.topic-actions').getByRole('button', { name: 'Discuss', exact: true }).click();
    await postInComposer(page, 'Add a response', 'It depends on public transport quality.');
    await page.getByText('3 responses').waitFor();
    await expect
      .poll(
        async () =>
          ((await api.get(`/responses?topic_id=${topicId}`)).body as { content: string; type: string }[])
            .map((r) => [r.type, r.content])
            .sort(),
        SYNCED,
      )
      .toEqual([
        ['against', 'Deliveries and disabled people need access.'],
        ['for', 'Cleaner air and safer streets for everyone.'],
        ['neutral', 'It depends on public transport quality.'],
      ]);
    await expect(
      responseItem(page, 'Deliveries and disabled people need access.').locator('.stance').first().textContent(),
    ).resolves.toContain('Disagrees');

    // Reply three levels deep.
    const level0 = responseItem(page, 'Cleaner air and safer streets for everyone.');
    await level0.locator('> article .response-actions').getByRole('button', { name: 'Disagree', exact: true }).click();
    await postInComposer(page, 'Reply', 'Air quality gains are small. (level 1)');
    const level1 = responseItem(page, 'Air quality gains are small. (level 1)');
    await level1.locator('> article .response-actions').getByRole('button', { name: 'Agree', exact: true }).click();
    await postInComposer(page, 'Reply', 'Studies show 20% NO2 drop. (level 2)');
    const level2 = responseItem(page, 'Studies show 20% NO2 drop. (level 2)');
    await level2.locator('> article .response-actions').getByRole('button', { name: 'Discuss', exact: true }).click();
    await postInComposer(page, 'Reply', 'Which studies exactly? (level 3)');
    await expect.poll(async () => ((await api.get(`/responses/mappings?topic_id=${topicId}`)).body as unknown[]).length, SYNCED).toBe(6);
    const mappings = (await api.get(`/responses/mappings?topic_id=${topicId}`)).body as { id: string; parent_response_id: string | null }[];
    const parentOf = new Map(mappings.map((m) => [m.id, m.parent_response_id]));
    const deepest = (await api.get(`/responses/search?topic_id=${topicId}&q=${encodeURIComponent('Which studies')}`)).body[0] as {
      id: string;
      type: string;
    };
    expect(deepest.type).toBe('neutral');
    let depth = 0;
    for (let id = parentOf.get(deepest.id); id; id = parentOf.get(id)) depth++;
    expect(depth).toBe(3);
    // 20 px of indent per level.
    const x0 = (await level0.locator('> article').boundingBox())!.x;
    const x3 = (await responseItem(page, 'Which studies exactly? (level 3)').locator('> article').boundingBox())!.x;
    expect(x3 - x0).toBeGreaterThanOrEqual(60);
    await screenshot(page, 'topic-nested');

    // A root response that quotes the deepest reply and carries sources (add two, remove one).
    const form = page.getByRole('form', { name: 'Add a response' });
    await form.getByRole('textbox').first().fill('Here is the evidence on the NO2 studies.');
    await form.getByRole('button', { name: 'Quote a response' }).click();
    // Nothing matches: said in the panel's polite live region, then the real search.
    await form.getByLabel('Search a response to quote').fill('zebra quartz');
    await form.getByText('No response matches “zebra quartz”.').waitFor();
    expect(await form.getByTestId('quote-no-match').getAttribute('aria-live')).toBe('polite');
    await form.getByLabel('Search a response to quote').fill('Which stu');
    await form.getByRole('button', { name: 'Which studies exactly? (level 3)' }).click();
    await form.getByText('Quoting: “Which studies exactly? (level 3)”').waitFor();
    await form.getByRole('button', { name: /^Sources/ }).click();
    await form.getByLabel('Source URL').fill('  https://example.org/no2-study  ');
    await form.getByLabel('Source name (optional)').fill('NO2 study');
    await form.getByRole('button', { name: 'Add source' }).click();
    await form.getByLabel('Source URL').fill('https://example.org/no2-study');
    expect(await form.getByLabel('Source name (optional)').isDisabled()).toBe(true);
    await form.getByLabel('Source URL').fill('https://example.org/wrong');
    await form.getByRole('button', { name: 'Add source' }).click();
    await form.getByRole('button', { name: 'Remove source https://example.org/wrong' }).click();
    await form.getByRole('button', { name: 'Post response' }).click();
    const quoting = responseItem(page, 'Here is the evidence on the NO2 studies.');
    await quoting.waitFor();
    await quoting.getByRole('link', { name: 'NO2 study' }).waitFor();
    await expect
      .poll(async () => ((await api.get(`/responses/search?topic_id=${topicId}&q=evidence`)).body as any[])[0], SYNCED)
      .toMatchObject({ quoted_response_id: deepest.id, sources: [{ url: 'https://example.org/no2-study', name: 'NO2 study' }] });

    // Jump to the quote from a fresh page (ancestors collapsed): expands the chain and scrolls there.
    await page.reload();
    await responseItem(page, 'Here is the evidence on the NO2 studies.').waitFor();
    expect(await responseItem(page, 'Which studies exactly? (level 3)').count()).toBe(0);
    await responseItem(page, 'Here is the evidence on the NO2 studies.')
      .getByTestId('quoted-block')
      .getByRole('button', { name: /^Go to quoted response/ })
      .click();
    const target = page.locator(`#response-${deepest.id}`);
    await target.waitFor();
    await page.waitForFunction((id) => {
      const r = document.getElementById(id)!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, `response-${deepest.id}`);
    expect(await target.getAttribute('class')).toContain('is-highlighted');

    // Vote and unvote (topic and a response).
    const topicVote = page.locator('.topic-actions .vote-button');
    await topicVote.click();
    await page.locator('.topic-actions [data-testid="score"]').filter({ hasText: /^1$/ }).waitFor();
    await expect.poll(async () => (await api.get(`/topics/${topicId}`)).body, SYNCED).toMatchObject({ score: 1, user_has_upvoted: true });
    await topicVote.click();
    await page.locator('.topic-actions [data-testid="score"]').filter({ hasText: /^0$/ }).waitFor();
    await expect.poll(async () => (await api.get(`/topics/${topicId}`)).body, SYNCED).toMatchObject({ score: 0, user_has_upvoted: false });
    const againstVote = responseItem(page, 'Deliveries and disabled people need access.').locator('> article .vote-button');
    await againstVote.click();
    await againstVote.locator('[data-testid="score"]').filter({ hasText: /^1$/ }).waitFor();
    expect(await againstVote.getAttribute('aria-pressed')).toBe('true');

    // Edit inline.
    const neutral = responseItem(page, 'It depends on public transport quality.');
    await neutral.locator('> article').getByRole('button', { name: 'Edit', exact: true }).click();
    const editForm = page.getByRole('form', { name: 'Edit response' });
    await editForm.getByRole('textbox').first().fill('It depends on the quality of public transport.');
    // A source already cited in the topic is suggested from 3 characters on.
    await editForm.getByRole('button', { name: /^Sources/ }).click();
    await editForm.getByLabel('Source URL').fill('no2');
    await editForm.getByRole('button', { name: 'NO2 study — https://example.org/no2-study' }).click();
    expect(await editForm.getByLabel('Source name (optional)').inputValue()).toBe('NO2 study');
    await editForm.getByRole('button', { name: 'Add source' }).click();
    await editForm.getByRole('button', { name: 'Save' }).click();
    await responseItem(page, 'It depends on the quality of public transport.').waitFor();
    await expect
      .poll(
        async () =>
          ((await api.get(`/responses?topic_id=${topicId}`)).body as any[])
            .find((r) => r.content === 'It depends on the quality of public transport.')
            ?.sources.map((x: { url: string }) => x.url),
        SYNCED,
      )
      .toEqual(['https://example.org/no2-study']);

    // Delete a subtree (level 1 and everything under it).
    const lvl1Id = parentOf.get(parentOf.get(deepest.id)!)!;
    await responseItem(page, 'Air quality gains are small. (level 1)')
      .locator('> article')
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await responseItem(page, 'Air quality gains are small. (level 1)').waitFor({ state: 'detached' });
    await expect
      .poll(async () => ((await api.get(`/responses/mappings?topic_id=${topicId}`)).body as any[]).map((m) => m.id), SYNCED)
      .not.toContain(lvl1Id);
    const left = ((await api.get(`/responses/mappings?topic_id=${topicId}`)).body as any[]).map((m) => m.id);
    expect(left).not.toContain(deepest.id);
    expect(left).toHaveLength(4);
    await screenshot(page, 'topic-after-delete');

    // Delete the topic: confirmation, then back to the list.
    await page.locator('.topic-actions').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(server.url + '/');
    await expect.poll(async () => (await api.get(`/topics/${topicId}`)).status, SYNCED).toBe(404);
    expect(errors, 'console errors').toEqual([]);
    await context.close();
  });

  it('shows a signed-out visitor the topic with a vote that opens the sign-in, and Topic not found for a bad id', async () => {
    const api = apiClient(server.url, () => alice.token);
    const topic = (await api.post('/topics', { title: 'Is remote work here to stay?', categories: ['Economics'] })).body as { id: string };
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(`${server.url}/topics/${topic.id}`);
    await page.getByRole('heading', { name: 'Is remote work here to stay?' }).waitFor();
    await page.getByText('by Alice Debater').waitFor();
    const vote = page.locator('.topic-actions .vote-button');
    // Not shown as unavailable (a press is the way in): it says what it opens and why.
    expect(await vote.getAttribute('aria-disabled')).toBe('false');
    expect(await vote.getAttribute('aria-haspopup')).toBe('dialog');
    expect(await vote.getAttribute('title')).toBe('You must be logged in to vote.');
    await vote.click();
    // The press opens the sign-in, saying why; Escape closes it and nothing was voted.
    const signIn = page.getByRole('dialog', { name: 'Sign in to Crux' });
    await signIn.getByRole('alert').filter({ hasText: 'You must be logged in to vote.' }).waitFor();
    await page.keyboard.press('Escape');
    await signIn.waitFor({ state: 'detached' });
    expect(await vote.getByTestId('score').textContent()).toBe('0');
    expect((await api.get(`/topics/${topic.id}`)).body).toMatchObject({ score: 0 });
    expect(await page.locator('.topic-actions').getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back to Topics', exact: true }).click();
    await page.waitForURL(server.url + '/');
    await page.getByRole('link', { name: 'Is remote work here to stay?' }).waitFor();
    await page.goto(`${server.url}/topics/does-not-exist`);
    await page.getByText('Topic not found.').waitFor();
    await context.close();
  });

  it("shows another user's new response live, without a reload", async () => {
    const bea = await createTestUser('Bea Watcher');
    const aliceApi = apiClient(server.url, () => alice.token);
    const topic = (await aliceApi.post('/topics', { title: 'Is breakfast the most important meal?', categories: ['Health'] })).body as {
      id: string;
    };
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(`${server.url}/topics/${topic.id}`);
    await signInThroughModal(page, bea);
    await page.getByText('No responses yet.').waitFor();
    expect(
      (await aliceApi.post('/responses', { topic_id: topic.id, type: 'against', content: 'Skipping it works for many.' })).status,
    ).toBe(201);
    await responseItem(page, 'Skipping it works for many.').waitFor({ timeout: 20_000 });
    await page.getByText('1 response', { exact: true }).waitFor({ timeout: 20_000 });
    await context.close();
  }, 60_000);
});
