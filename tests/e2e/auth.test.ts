// Sign-in in real Chromium against the real server and the Auth emulator:
// widget validations, sign-up, the username modal, sign-out, overlay close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestUser, disableTestUser, emulatorHost } from '../fixtures/auth';
import { apiClient } from '../fixtures/api';
import { logOut, signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  await ensureBuild();
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

async function lookup(idToken: string) {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  return ((await res.json()) as { users: { displayName?: string; email: string }[] }).users[0]!;
}

async function signInWithPassword(email: string, password: string) {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  return (await res.json()) as { idToken: string };
}

describe('sign-in widget', () => {
  it('validates, signs up with name, e-mail and password, and signs out', async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Crux' });
    await expect(dialog.getByRole('button', { name: 'Sign in with Google' }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('button', { name: 'Sign in with Twitter' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'signin-providers');

    // A click on the overlay closes the modal.
    await page.mouse.click(5, 300);
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter your email address to continue').waitFor();
    await page.getByText('Enter your password').waitFor();
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText("That email address isn't correct").waitFor();

    await page.getByRole('button', { name: 'Create account' }).click();
    const email = `e2e-${Date.now()}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Choose password').fill('abc');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Enter your account name').waitFor();
    await page.getByText('Strong passwords have at least 6 characters and a mix of letters and numbers').waitFor();
    await page.getByLabel('First & last name').fill('  Grace Hopper ');
    await page.getByLabel('Choose password').fill('correct-horse-9');
    await screenshot(page, 'signup-form');
    // The name is given at sign-up: the username modal must not flash while it is being set.
    await page.evaluate(() => {
      const w = window as unknown as { sawWelcome: boolean };
      w.sawWelcome = false;
      new MutationObserver(() => {
        if (document.querySelector('[aria-label="Welcome! Please set your username."]')) w.sawWelcome = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByTestId('header-user').filter({ hasText: 'Grace Hopper' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sawWelcome: boolean }).sawWelcome)).toBe(false);
    const account = await lookup((await signInWithPassword(email, 'correct-horse-9')).idToken);
    expect(account.displayName).toBe('Grace Hopper');

    // Signed in state survives a reload (IndexedDB persistence).
    await page.reload();
    await page.getByTestId('header-user').filter({ hasText: 'Grace Hopper' }).waitFor();
    await page.setViewportSize({ width: 1200, height: 800 });
    await logOut(page);
    await context.close();
  });

  it('maps a wrong password to the widget text', async () => {
    const user = await createTestUser('Wrong Pw');
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText("The email and password you entered don't match").waitFor();
    await context.close();
  });

  it('asks a user without a display name for a username and stores it trimmed', async () => {
    const user = await createTestUser(null);
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();

    const welcome = page.getByRole('dialog', { name: 'Welcome! Please set your username.' });
    await welcome.waitFor();
    await page.getByLabel('Username', { exact: true }).fill('   ');
    await welcome.getByRole('button', { name: 'Save username' }).click();
    await welcome.getByText('Username cannot be empty.').waitFor();
    await screenshot(page, 'username-modal');
    await page.getByLabel('Username', { exact: true }).fill('  Ada  ');
    await welcome.getByRole('button', { name: 'Save username' }).click();
    await welcome.waitFor({ state: 'detached' });
    await page.getByTestId('header-user').filter({ hasText: /^Ada$/ }).waitFor();
    expect((await lookup(await user.refresh())).displayName).toBe('Ada');
    await context.close();
  });

  it('signs the user out when Firebase reports the account disabled', async () => {
    const author = await createTestUser('Topic Author');
    const topic = (
      await apiClient(server.url, author.token).post('/topics', { title: 'Are cats better than dogs?', categories: ['Other'] })
    ).body as { id: string };
    const user = await createTestUser('Soon Disabled');
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await signInThroughModal(page, user);
    await disableTestUser(user);
    // The next request (this vote, or the live stream's reconnect if it comes first) is refused;
    // the token refresh that follows reports auth/user-disabled. If the sign-out already
    // happened, the button is disabled and the click is skipped.
    await page
      .locator(`[data-topic-id="${topic.id}"] .vote-button`)
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    // The header's own Sign in (the session-ended strip below it has one too).
    await page.locator('.site-header-user').getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('header-user').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('sends a password recovery e-mail through the emulator', async () => {
    const user = await createTestUser('Forgetful');
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByRole('button', { name: 'Trouble signing in?' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Enter your email address to continue').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog', { name: 'Check your email' }).waitFor();
    const res = await fetch(`http://${emulatorHost()}/emulator/v1/projects/demo-crux/oobCodes`);
    const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string }[] };
    expect(oobCodes.some((c) => c.email === user.email && c.requestType === 'PASSWORD_RESET')).toBe(true);
    await context.close();
  });
});
