// Steps the browser tests share: signing in through the modal, creating a topic, posting a response.
import type { Page } from 'playwright-core';
import type { TestUser } from '../fixtures/auth';

export async function signInThroughModal(page: Page, user: TestUser): Promise<void> {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
  // Without a display name the header offers "Set username" (never the raw e-mail address).
  if (user.name === null) await page.locator('header').getByRole('button', { name: 'Set username' }).waitFor();
  else await page.getByTestId('header-user').filter({ hasText: user.name }).waitFor();
}

/** Logout through its dialog ("Also remove my data from this device" is on unless this is the person's own device). */
export async function logOut(page: Page, options: { removeData?: boolean; ownDevice?: boolean } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out of Crux' });
  if (options.ownDevice !== undefined) await dialog.getByRole('checkbox', { name: /This is my own device/ }).setChecked(options.ownDevice);
  if (options.removeData !== undefined)
    await dialog.getByRole('checkbox', { name: 'Also remove my data from this device' }).setChecked(options.removeData);
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
}

/** Types the title in the search-or-create box, picks the category, uses the Create topic entry; returns the new id. */
export async function createTopicThroughSearchBox(page: Page, title: string, category: string): Promise<string> {
  await page.getByLabel('Search or create a topic').fill(title);
  await page.getByLabel('Category for a new topic').selectOption(category);
  await page.getByRole('button', { name: `Create topic "${title}"` }).click();
  await page.waitForURL(/\/topics\/[A-Za-z0-9_-]+$/);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Posts through a composer (root form or a reply form) and waits for the text to show. */
export async function postInComposer(page: Page, formName: 'Add a response' | 'Reply', content: string): Promise<void> {
  const form = page.getByRole('form', { name: formName }).last();
  await form.getByRole('textbox').first().fill(content);
  await form.getByRole('button', { name: 'Post response' }).click();
  await page.getByTestId('response-content').filter({ hasText: content }).first().waitFor();
}

/**
 * The response item (li) whose own content is `content`. Playwright's `:text-is` matches the smallest
 * element holding the text: a formatted text's paragraph inside the content box, or the box itself
 * for a text shown as it is (a moderator's notice).
 */
export function responseItem(page: Page, content: string) {
  const text = `:text-is(${JSON.stringify(content)})`;
  const box = '[data-testid="response-content"]';
  return page.locator(`li[data-testid="response"]:has(> article :is(${box}${text}, ${box} ${text}))`);
}

/**
 * Resolves once the topic is in the device's own database (RxDB's Dexie storage: one IndexedDB
 * database per collection, documents in its `docs` store). A page opened by address paints the
 * topic from the server's first screen before the device has pulled it; a test that goes offline
 * to write there must wait for the device's copy, as a person's write offline needs it.
 */
export async function waitForTopicOnDevice(page: Page, topicId: string): Promise<void> {
  await page.waitForFunction(
    async (id) => {
      const names = (await indexedDB.databases()).map((db) => db.name ?? '').filter((name) => /^rxdb-dexie-.*--topics$/.test(name));
      for (const name of names) {
        const found = await new Promise<boolean>((resolve) => {
          const open = indexedDB.open(name);
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const db = open.result;
            try {
              const get = db.transaction('docs', 'readonly').objectStore('docs').get(id);
              get.onsuccess = () => resolve(get.result !== undefined);
              get.onerror = () => resolve(false);
            } catch {
              resolve(false);
            } finally {
              db.close();
            }
          };
        });
        if (found) return true;
      }
      return false;
    },
    topicId,
    { timeout: 30_000, polling: 250 },
  );
}

/** On a phone the stance picker and the balance bars fold behind one button: opens it there (a wide screen has none). */
export async function openStanding(page: Page): Promise<void> {
  const toggle = page.getByTestId('standing-toggle');
  // Always in the topic's header (hidden by CSS on a wide screen): once it is there, its look says which.
  await toggle.waitFor({ state: 'attached' });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
}
