// @vitest-environment jsdom
// /unsubscribe states and their texts: signed out, loading, load failure,
// subscribed/unsubscribed statement with its button, update success and failure, and the
// confirmation of a mail's one-click link (?token=…).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { BehaviorSubject, of, throwError } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { Preferences } from '../../../shared/types';
import { UnsubscribePage } from '../../../app/src/routes/UnsubscribePage';
import { createConnectivity } from '../../../app/src/data/connectivity';
import { createHttp } from '../../../app/src/data/http';
import { createSubscriptions } from '../../../app/src/data/subscriptions';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null, sendVerificationEmail: null as null | (() => Promise<void>) }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));
vi.mock('../../../app/src/auth/actions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../app/src/auth/actions')>()),
  sendVerificationEmail: () => held.sendVerificationEmail!(),
}));

beforeEach(() => {
  held.session = SIGNED_IN;
});

/** A mail link's page: the data layer's own one-click unsubscribe, over the fetch the test stubs (same origin, online). */
function mailLinkData() {
  const http = createHttp(
    '',
    (input, init) => fetch(input, init),
    createConnectivity(undefined, () => true),
  );
  return fakeData({ confirmUnsubscribe: createSubscriptions(http, () => null).confirmUnsubscribe });
}
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UnsubscribePage', () => {
  it('an unverified address: says why no mail comes and sends the verification e-mail', async () => {
    held.session = { ...SIGNED_IN, user: { ...SIGNED_IN.user!, emailVerified: false } };
    const send = vi.fn(async () => {});
    held.sendVerificationEmail = send;
    renderWithData(<UnsubscribePage />, fakeData({ preferences$: () => of({ receive_weekly_summary: true }) }), '/unsubscribe');
    screen.getByText('You are subscribed to the weekly summary e-mails.');
    screen.getByText('We send the weekly summary only to a verified address.');
    expect(screen.queryByText(/The weekly summary goes to/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send verification e-mail' }));
    await screen.findByText(/Verification e-mail sent to ada@example\.org\./);
    expect(send).toHaveBeenCalledTimes(1);

    held.sendVerificationEmail = async () => {
      throw new Error('Too many attempts. Try again later.');
    };
    fireEvent.click(screen.getByRole('button', { name: 'Send verification e-mail' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not send the verification e-mail. Too many attempts. Try again later.');
  });

  it('a verified address: no notice, no button, the address it goes to', () => {
    held.session = { ...SIGNED_IN, user: { ...SIGNED_IN.user!, emailVerified: true } };
    renderWithData(<UnsubscribePage />, fakeData({ preferences$: () => of({ receive_weekly_summary: true }) }), '/unsubscribe');
    screen.getByText('The weekly summary goes to ada@example.org.');
    expect(screen.queryByText('We send the weekly summary only to a verified address.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send verification e-mail' })).toBeNull();
  });

  it('signed out: the title and the SPEC text', () => {
    held.session = SIGNED_OUT;
    renderWithData(<UnsubscribePage />, fakeData(), '/unsubscribe');
    screen.getByRole('heading', { level: 1, name: 'Email Subscriptions' });
    screen.getByText('You must be logged in to manage your preferences.');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('loading, then the load failure text', () => {
    renderWithData(<UnsubscribePage />, fakeData(), '/unsubscribe');
    expect(screen.getByRole('status').textContent).toBe('Loading your preferences...');
    cleanup();
    renderWithData(<UnsubscribePage />, fakeData({ preferences$: () => throwError(() => new Error('disk')) }), '/unsubscribe');
    expect(screen.getByRole('alert').textContent).toBe('Failed to load your preferences.');
  });

  it('subscribed: Unsubscribe writes the profile, then the success text and the new statement', async () => {
    const prefs = new BehaviorSubject<Preferences | null>({ receive_weekly_summary: true });
    const setWeeklySummary = vi.fn(async (receive: boolean) => prefs.next({ receive_weekly_summary: receive }));
    renderWithData(<UnsubscribePage />, fakeData({ preferences$: () => prefs, setWeeklySummary }), '/unsubscribe');
    screen.getByText('You are subscribed to the weekly summary e-mails.');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await screen.findByText('Your preferences have been updated.');
    expect(setWeeklySummary).toHaveBeenCalledWith(false);
    screen.getByText('You are unsubscribed from the weekly summary e-mails.');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await screen.findByText('You are subscribed to the weekly summary e-mails.');
    expect(setWeeklySummary).toHaveBeenLastCalledWith(true);
  });

  it('a failed update shows the SPEC failure text', async () => {
    const setWeeklySummary = vi.fn(async () => {
      throw new Error('You must be logged in to update your preferences.');
    });
    renderWithData(
      <UnsubscribePage />,
      fakeData({ preferences$: () => of({ receive_weekly_summary: false }), setWeeklySummary }),
      '/unsubscribe',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Failed to update your preferences. You must be logged in to update your preferences.');
  });

  it('from a mail link: POSTs the token once (no sign-in needed) and says it is done', async () => {
    held.session = SIGNED_OUT;
    const calls: Array<[string, RequestInit | undefined]> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(JSON.stringify({ ok: true, receive_weekly_summary: false }), { status: 200 });
    });
    renderWithData(<UnsubscribePage />, mailLinkData(), '/unsubscribe?token=u1.abc.123.sig');
    await screen.findByText('You have been unsubscribed from the weekly summary e-mails.');
    screen.getByText('Your preferences have been updated.');
    expect(calls[0]![0]).toBe('/api/unsubscribe?token=u1.abc.123.sig');
    expect(calls[0]![1]?.method).toBe('POST');
    expect(new Headers(calls[0]![1]?.headers).has('authorization')).toBe(false);
  });

  it('from a mail link: a refused token shows the failure text and the server reason', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ error: 'This unsubscribe link has expired.', code: 'link-expired' }), { status: 410 }),
    );
    renderWithData(<UnsubscribePage />, mailLinkData(), '/unsubscribe?token=old');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to update your preferences.');
    expect(alert.textContent).toContain('This unsubscribe link has expired.');
  });
});
