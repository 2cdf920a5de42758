// @vitest-environment jsdom
// The push button says what it is doing and why it failed. jsdom has no Push API, so the browser's
// side (Notification, the service worker registration, its push manager) is faked at that boundary;
// everything from push/device.ts up is the real code.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { PushSettings } from '../../../app/src/components/PushSettings/PushSettings';
import { usePushPreferences } from '../../../app/src/components/PushSettings/usePushPreferences';
import { PUSH_SUBSCRIBE_TIMEOUT_MS, PUSH_TEXT } from '../../../app/src/push/device';
import { DEFAULT_PUSH_SETTINGS, type PushSettings as Settings } from '../../../shared/push';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

interface FakeBrowser {
  permission: NotificationPermission;
  /** What the permission prompt answers. */
  answer: NotificationPermission;
  subscribe: () => Promise<PushSubscription>;
  /** Without PushManager and a service worker (Firefox's private windows, older Safari). */
  push: boolean;
}

let browser: FakeBrowser;
const requestPermission = vi.fn(async () => {
  browser.permission = browser.answer;
  return browser.answer;
});

function subscription(): PushSubscription {
  return {
    endpoint: 'https://push.example/1',
    options: { applicationServerKey: null, userVisibleOnly: true },
    toJSON: () => ({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: async () => true,
  } as unknown as PushSubscription;
}

function installBrowser() {
  const current: { sub: PushSubscription | null } = { sub: null };
  const registration = {
    pushManager: {
      getSubscription: async () => current.sub,
      subscribe: async () => (current.sub = await browser.subscribe()),
    },
  };
  vi.stubGlobal('Notification', {
    get permission() {
      return browser.permission;
    },
    requestPermission,
  });
  if (browser.push) {
    vi.stubGlobal('PushManager', function PushManager() {});
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
    });
  }
}

function Push() {
  return <PushSettings prefs={usePushPreferences()} />;
}

function renderPush(savePushSubscription = vi.fn(async () => {})) {
  installBrowser();
  const data = fakeData({
    pushSettings$: () => new BehaviorSubject<Settings | null>(DEFAULT_PUSH_SETTINGS),
    pushPublicKey: async () => 'server-key',
    savePushSubscription,
  });
  renderWithData(<Push />, data);
  return { savePushSubscription };
}

const turnOn = () => screen.findByRole('button', { name: PUSH_TEXT.turnOn });
const section = () => screen.getByRole('region', { name: PUSH_TEXT.heading });

beforeEach(() => {
  browser = { permission: 'default', answer: 'granted', subscribe: async () => subscription(), push: true };
  requestPermission.mockClear();
  Object.defineProperty(navigator, 'onLine', { configurable: true, value: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('PushSettings: turning on', () => {
  it('says "Turning on push notifications…" with the button busy, and a second press asks nothing more', async () => {
    let subscribed!: (s: PushSubscription) => void;
    browser.subscribe = () => new Promise((resolve) => (subscribed = resolve));
    const { savePushSubscription } = renderPush();
    fireEvent.click(await turnOn());
    const busy = await screen.findByRole('button', { name: PUSH_TEXT.turningOn });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe(PUSH_TEXT.turningOn);
    fireEvent.click(busy);
    expect(requestPermission).toHaveBeenCalledTimes(1);

    await act(async () => subscribed(subscription()));
    await screen.findByText(PUSH_TEXT.on);
    expect(savePushSubscription).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.getByRole('button', { name: PUSH_TEXT.turnOff }).getAttribute('aria-busy')).toBe('false');
  });

  it(`gives up after ${PUSH_SUBSCRIBE_TIMEOUT_MS / 1000} s without the push service, and says so`, async () => {
    browser.subscribe = () => new Promise(() => {});
    const { savePushSubscription } = renderPush();
    const button = await turnOn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(button);
    // (No findBy* under fake timers: its polling would wait on them.)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PUSH_SUBSCRIBE_TIMEOUT_MS - 1);
    });
    screen.getByRole('button', { name: PUSH_TEXT.turningOn });
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByRole('alert').textContent).toBe("Couldn't reach the browser's push service. Try again later.");
    // Ready to try again.
    expect(screen.getByRole('button', { name: PUSH_TEXT.turnOn }).getAttribute('aria-busy')).toBe('false');
    expect(savePushSubscription).not.toHaveBeenCalled();
  });
});

describe('PushSettings: why it cannot', () => {
  it('no Push API or service worker here: says this browser cannot, not that permission was denied', async () => {
    browser.push = false;
    renderPush();
    await screen.findByText("This browser can't receive push notifications here (private windows often can't).");
    expect(screen.queryByRole('button', { name: PUSH_TEXT.turnOn })).toBeNull();
    expect(section().textContent).not.toContain('blocked');
  });

  it('permission granted but the push manager refuses (a Chrome private window\'s "permission denied"): no push here, not denied', async () => {
    browser.subscribe = async () => {
      throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
    };
    renderPush();
    fireEvent.click(await turnOn());
    expect((await screen.findByRole('alert')).textContent).toBe(PUSH_TEXT.unsupported);
    expect(section().textContent).not.toContain(PUSH_TEXT.denied);
  });

  it('blocked in the browser (Notification.permission is denied): says where to allow it, no button', async () => {
    browser.permission = 'denied';
    renderPush();
    await screen.findByText(PUSH_TEXT.denied);
    expect(screen.queryByRole('button', { name: PUSH_TEXT.turnOn })).toBeNull();
  });

  it('denied at the prompt: the denied message; the prompt dismissed: asks to press again', async () => {
    browser.answer = 'denied';
    renderPush();
    fireEvent.click(await turnOn());
    expect((await screen.findByRole('alert')).textContent).toBe(PUSH_TEXT.denied);
    cleanup();

    browser = { ...browser, permission: 'default', answer: 'default' };
    renderPush();
    fireEvent.click(await turnOn());
    expect((await screen.findByRole('alert')).textContent).toBe(PUSH_TEXT.dismissed);
  });

  it("another failure of the push manager says it could not, with the browser's reason", async () => {
    browser.subscribe = async () => {
      throw new DOMException('The push service returned an error', 'AbortError');
    };
    renderPush();
    fireEvent.click(await turnOn());
    expect((await screen.findByRole('alert')).textContent).toBe('Could not turn on push notifications: The push service returned an error');
  });
});
