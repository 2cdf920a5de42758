// Web Push end to end against a real RFC 8030 receiver on a loopback port, on both
// engines: a device turns push on, a reply to its user is queued with the notification and sent
// after the commit, encrypted to the device (decrypted back here) and signed with the server's
// VAPID key (verified here); 404/410 removes the device; 429 and 5xx are retried after the backoff
// (honouring Retry-After); a restart mid-queue and two senders at once push each notification once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { clockIn, DEFAULT_PUSH_SETTINGS, inQuietHours, type PushPayload } from '../../shared/push.js';
import { SYNC_PROTOCOL_VERSION, type ProfileDoc, type PullResponse, type PushResponse } from '../../shared/sync-protocol.js';
import { readConfig } from '../../sync-server/src/config.js';
import { endpointProblem } from '../../sync-server/src/push/endpoint.js';
import { startPushSender, type PushSender } from '../../sync-server/src/push/sender.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startPushReceiver, type PushReceiver } from '../fixtures/push-receiver.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('web push', () => {
  let server: TestServer;
  let receiver: PushReceiver;
  let ada: TestUser;
  let bob: TestUser;
  const senders: PushSender[] = [];
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const sender = (options: { retryBaseMs?: number; store?: TestServer['store'] } = {}) => {
    const started = startPushSender({
      store: options.store ?? server.store,
      changes: server.ctx.changes,
      vapid: server.vapid,
      allowLoopback: true,
      retryBaseMs: options.retryBaseMs ?? 100,
      log: () => {},
    });
    senders.push(started);
    return started;
  };
  /** Bob replies to Ada's topic: one notification for Ada. */
  const replyToAda = async (content = 'A reply Ada should hear about') => {
    const topic = await makeTopic(as(ada), { title: `Push topic ${Math.random().toString(36).slice(2, 8)}` });
    const reply = await makeResponse(as(bob), { topic_id: topic.id, content });
    return { topic, reply };
  };
  const subscribe = async (user: TestUser, device: string) => {
    const { subscription } = receiver.device(device);
    const res = await as(user).put('/push/subscription', subscription);
    expect(res.status, res.text).toBe(201);
    return subscription;
  };

  beforeAll(async () => {
    server = await startTestServer();
    receiver = await startPushReceiver(server.vapid.publicKey);
    ada = await createTestUser('Ada');
    bob = await createTestUser('Bob');
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    expect(receiver.problems).toEqual([]);
  });
  afterAll(async () => {
    await receiver.close();
    await server.stop();
  });

  it('serves the VAPID public key; turning push on needs a sign-in and a well-formed subscription', async () => {
    const config = await as().get<{ public_key: string }>('/push/config');
    expect(config.status).toBe(200);
    expect(config.body.public_key).toBe(server.vapid.publicKey);
    expect(Buffer.from(config.body.public_key, 'base64url')).toHaveLength(65);

    const { subscription } = receiver.device('anon');
    const anonymous = await as().put('/push/subscription', subscription);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe(MSG.loginToPush);
    const badKey = await as(ada).put('/push/subscription', { ...subscription, keys: { ...subscription.keys, p256dh: 'AAAA' } });
    expect(badKey.status).toBe(400);
    const noKeys = await as(ada).put('/push/subscription', { endpoint: subscription.endpoint });
    expect(noKeys.status).toBe(400);
    const intranet = await as(ada).put('/push/subscription', { ...subscription, endpoint: 'https://10.0.0.8/push/x' });
    expect(intranet.status).toBe(400);
    expect(intranet.body.error).toBe('The push endpoint must name a public push service.');
    // Saving again for the same user is an update, not a new device.
    expect((await as(ada).put('/push/subscription', subscription)).status).toBe(201);
    expect((await as(ada).put('/push/subscription', subscription)).status).toBe(200);
    expect((await as(bob).del('/push/subscription', { endpoint: subscription.endpoint })).status).toBe(404);
    expect((await as(ada).del('/push/subscription', { endpoint: subscription.endpoint })).status).toBe(204);
    expect(await server.store.push.getSubscription(subscription.endpoint)).toBeUndefined();
  });

  it("takes endpoints only on the browsers' push services, and the hosts PUSH_SERVICE_HOSTS adds", async () => {
    const { subscription } = receiver.device('victim');
    const victim = await as(ada).put('/push/subscription', { ...subscription, endpoint: 'https://victim.example/anything' });
    expect(victim.status).toBe(400);
    expect(victim.body.error).toBe(MSG.pushEndpointNotAService);
    expect(await server.store.push.getSubscription('https://victim.example/anything')).toBeUndefined();
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com/wp/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGuX',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ])
      expect(endpointProblem(endpoint, false), endpoint).toBeNull();
    for (const endpoint of [
      'https://victim.example/anything',
      'https://fcm.googleapis.com.victim.example/x',
      'https://evil-fcm.googleapis.com/x',
      'https://notify.windows.com.victim.example/x',
      'https://notify.windows.com/x',
      'https://apple.com/x',
      'https://push.example.com/x',
    ])
      expect(endpointProblem(endpoint, false), endpoint).toBe(MSG.pushEndpointNotAService);
    // An operator's own push service: named exactly, or every host under a domain.
    expect(endpointProblem('https://push.example.com/x', false, ['push.example.com'])).toBeNull();
    expect(endpointProblem('https://eu.push.example.net/x', false, ['*.push.example.net'])).toBeNull();
    expect(endpointProblem('https://push.example.net/x', false, ['*.push.example.net'])).not.toBeNull();
    expect(endpointProblem('https://10.0.0.8/x', false, ['10.0.0.8'])).not.toBeNull();
    expect(readConfig({ PUSH_SERVICE_HOSTS: ' Push.Example.com , *.push.example.net,,' }).push.serviceHosts).toEqual([
      'push.example.com',
      '*.push.example.net',
    ]);
    expect(readConfig({}).push.serviceHosts).toEqual([]);
  });

  it('a stored device off the push services is dropped at send time, never posted to', async () => {
    const endpoint = 'https://victim.example/stored-before';
    const { subscription } = receiver.device('stored-victim');
    await server.store.transaction(() =>
      server.store.push.saveSubscription({ endpoint, uid: ada.uid, ...subscription.keys, created_at: new Date().toISOString() }),
    );
    const running = sender();
    await replyToAda('Not for victim.example');
    await until(async () => (await server.store.push.getSubscription(endpoint)) === undefined, 'the device removed');
    await until(async () => (await server.store.push.depth()) === 0, 'the queue empty');
    await running.stop();
  });

  it('quiet hours: within [start, end), across midnight, in the given zone; equal ends mean none', () => {
    const at = new Date('2026-11-27T23:30:00Z'); // 23:30 in UTC, 08:30 in Tokyo
    const quiet = (start: string, end: string, time_zone = 'UTC') => ({
      ...DEFAULT_PUSH_SETTINGS,
      quiet_hours: { start, end, time_zone },
    });
    expect(inQuietHours(quiet('22:00', '07:00'), at)).toBe(true);
    expect(inQuietHours(quiet('22:00', '23:30'), at)).toBe(false);
    expect(inQuietHours(quiet('23:30', '23:45'), at)).toBe(true);
    expect(inQuietHours(quiet('22:00', '07:00', 'Asia/Tokyo'), at)).toBe(false);
    expect(inQuietHours(quiet('08:00', '09:00', 'Asia/Tokyo'), at)).toBe(true);
    expect(inQuietHours(quiet('07:00', '07:00'), at)).toBe(false);
    expect(inQuietHours(DEFAULT_PUSH_SETTINGS, at)).toBe(false);
  });

  it('refuses endpoints that would make the server call into its own network (SSRF)', () => {
    const refused = [
      'http://push.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://push.example.com:8443/x',
      'https://user:pw@push.example.com/x',
      'https://intranet/x',
      'ftp://push.example.com/x',
      'not a url',
    ];
    for (const endpoint of refused) expect(endpointProblem(endpoint, false), endpoint).not.toBeNull();
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', false)).toBeNull();
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/abc', false)).toBeNull();
    expect(endpointProblem('http://127.0.0.1:9999/push/a', true)).toBeNull();
    expect(endpointProblem('http://10.0.0.1:9999/push/a', true)).not.toBeNull();
  });

  it("pushes a reply to every device of its recipient: encrypted to each, signed with the VAPID key, the bell's own text", async () => {
    const phone = await subscribe(ada, 'ada-phone');
    await subscribe(ada, 'ada-laptop');
    sender();
    const before = receiver.received.length;
    const { topic, reply } = await replyToAda('Tea has more antioxidants');
    await until(() => receiver.received.length >= before + 2, 'two pushes');
    const pushes = receiver.received.slice(before);
    expect(pushes.map((p) => p.device).sort()).toEqual(['ada-laptop', 'ada-phone']);
    const payload = pushes[0]!.payload as PushPayload;
    expect(payload).toMatchObject({
      type: 'reply_to_topic',
      topic_id: topic.id,
      topic_title: topic.title,
      response_id: reply.id,
      actor: 'Bob',
      text: `replied to your topic: "${topic.title}"`,
      url: `/topics/${topic.id}#response-${reply.id}`,
      tag: `topic-${topic.id}`,
    });
    expect(pushes[1]!.payload).toEqual(payload);
    const { vapid, headers } = pushes[0]!;
    expect(vapid.aud).toBe(new URL(phone.endpoint).origin);
    expect(vapid.sub).toBe('mailto:push@localhost');
    expect(vapid.exp * 1000).toBeGreaterThan(Date.now());
    expect(vapid.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(Number(headers.ttl)).toBeGreaterThan(0);
    expect(headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    await until(async () => (await server.store.push.depth()) === 0, 'an empty queue');
    expect((await server.store.push.getSubscription(phone.endpoint))!.last_success_at).not.toBeNull();

    // Ada's own reply in her topic notifies nobody, so nothing is pushed.
    const count = receiver.received.length;
    await makeResponse(as(ada), { topic_id: topic.id, content: 'Replying to myself' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.length).toBe(count);
    for (const device of ['ada-phone', 'ada-laptop'])
      await as(ada).del('/push/subscription', { endpoint: receiver.url + '/push/' + device });
  });

  it('a 410 or 404 from the push service removes the device; the next reply queues nothing for it', async () => {
    const gone = await subscribe(ada, 'ada-gone');
    const lost = await subscribe(ada, 'ada-lost');
    receiver.answer('ada-gone', { status: 410 });
    receiver.answer('ada-lost', { status: 404 });
    sender();
    await replyToAda();
    await until(async () => (await server.store.push.subscriptionsOf(ada.uid)).length === 0, 'both devices removed');
    expect(await server.store.push.getSubscription(gone.endpoint)).toBeUndefined();
    expect(await server.store.push.getSubscription(lost.endpoint)).toBeUndefined();
    const attempts = receiver.attempts.length;
    await replyToAda();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.attempts.length).toBe(attempts);
    expect(await server.store.push.depth()).toBe(0);
  });

  it('429 and 5xx are retried after the backoff, honouring Retry-After, and delivered once', async () => {
    await subscribe(ada, 'ada-busy');
    receiver.answer('ada-busy', { status: 429, headers: { 'Retry-After': '1' } }, { status: 503 });
    sender({ retryBaseMs: 50 });
    const before = receiver.received.length;
    const started = Date.now();
    const { reply } = await replyToAda();
    await until(() => receiver.received.length > before, 'the retried push', 15_000);
    // Retry-After: 1 was waited out (the backoff alone would have retried after 50 ms).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(receiver.attempts.filter((a) => a.device === 'ada-busy').map((a) => a.status)).toEqual([429, 503, 201]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const delivered = receiver.received.filter((p) => (p.payload as PushPayload).response_id === reply.id);
    expect(delivered).toHaveLength(1);
    await as(ada).del('/push/subscription', { endpoint: receiver.url + '/push/ada-busy' });
  });

  it('gives up after the last attempt and drops the push, keeping the device', async () => {
    const device = await subscribe(ada, 'ada-broken');
    receiver.answer('ada-broken', ...Array.from({ length: 6 }, () => ({ status: 500 })));
    sender({ retryBaseMs: 20 });
    await replyToAda();
    await until(() => receiver.attempts.filter((a) => a.device === 'ada-broken').length === 6, 'six attempts', 15_000);
    await until(async () => (await server.store.push.depth()) === 0, 'the push dropped');
    expect(await server.store.push.getSubscription(device.endpoint)).toBeDefined();
    await as(ada).del('/push/subscription', { endpoint: device.endpoint });
  });

  it('a restart mid-queue, and two processes sending at once, push each notification to each device once', async () => {
    await subscribe(ada, 'ada-restart');
    // No sender runs: the replies are queued with their notifications, as when the server stopped.
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push((await replyToAda(`Queued reply ${i}`)).reply.id);
    expect(await server.store.push.depth()).toBe(6);
    const before = receiver.received.length;
    // The next start: two processes (two stores on one database) each run a sender.
    const second = await server.openStore();
    try {
      sender();
      sender({ store: second });
      await until(() => receiver.received.length >= before + 6, 'six pushes');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const got = receiver.received.slice(before).map((p) => (p.payload as PushPayload).response_id);
      expect(got.sort()).toEqual([...replies].sort());
      expect(await server.store.push.depth()).toBe(0);
    } finally {
      await Promise.all(senders.splice(0).map((s) => s.stop()));
      await second.close();
    }
    await as(ada).del('/push/subscription', { endpoint: receiver.url + '/push/ada-restart' });
  });

  it("a notification read before its push goes is not pushed; a device that changes hands loses the old user's pushes", async () => {
    const shared = await subscribe(ada, 'shared-tablet');
    const { reply } = await replyToAda('Read on another device first');
    const notifications = (await as(ada).get<{ id: string }[]>(`/notifications/user/${ada.uid}`)).body;
    expect(notifications.length).toBeGreaterThan(0);
    expect((await as(ada).put(`/notifications/${notifications[0]!.id}/read`, {})).status).toBe(200);
    // Bob signs in on the same tablet and turns push on there: Ada's queued pushes to it go.
    await replyToAda('Queued for Ada on the shared tablet');
    expect((await as(bob).put('/push/subscription', shared)).status).toBe(201);
    expect((await server.store.push.getSubscription(shared.endpoint))!.uid).toBe(bob.uid);
    const before = receiver.received.length;
    sender();
    await until(async () => (await server.store.push.depth()) === 0, 'the queue emptied');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = receiver.received.slice(before).map((p) => (p.payload as PushPayload).response_id);
    expect(sent).not.toContain(reply.id);
    expect(sent).toEqual([]);
    await as(bob).del('/push/subscription', { endpoint: shared.endpoint });
  });

  it("honours the settings synced in the profile: a kind turned off, and quiet hours in the user's time zone", async () => {
    const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
    const profile = async () => (await as(ada).get<PullResponse<ProfileDoc>>('/sync/profile/pull?limit=10', SYNC)).body.documents[0]!;
    const setSettings = async (push_settings: unknown) => {
      const master = await profile();
      return as(ada).post<PushResponse<ProfileDoc>>(
        '/sync/profile/push',
        [{ assumedMasterState: master, newDocumentState: { ...master, push_settings } }],
        SYNC,
      );
    };
    expect((await profile()).push_settings).toEqual(DEFAULT_PUSH_SETTINGS);
    const device = await subscribe(ada, 'ada-settings');
    sender();
    const pushedFor = async (content: string) => {
      const { reply } = await replyToAda(content);
      await until(async () => (await server.store.push.depth()) === 0, 'the queue emptied');
      await new Promise((resolve) => setTimeout(resolve, 100));
      return receiver.received.some((p) => (p.payload as PushPayload).response_id === reply.id);
    };

    // Replies off: the bell counts, nothing is pushed.
    expect((await setSettings({ replies: false, moderation: true, quiet_hours: null })).body.rejected).toEqual([]);
    // A device from before mentions and follows sends the first kinds alone: the rest read as on.
    expect((await profile()).push_settings).toEqual({ ...DEFAULT_PUSH_SETTINGS, replies: false });
    expect(await pushedFor('Not pushed: replies are off')).toBe(false);

    // Quiet hours around this minute in Tokyo (the user's zone, not the server's).
    const tokyo = (offsetMinutes: number) => clockIn('Asia/Tokyo', new Date(Date.now() + offsetMinutes * 60_000));
    await setSettings({ replies: true, moderation: true, quiet_hours: { start: tokyo(-60), end: tokyo(60), time_zone: 'Asia/Tokyo' } });
    expect(await pushedFor('Not pushed: quiet hours')).toBe(false);
    // Quiet hours that ended an hour ago there: pushed.
    await setSettings({ replies: true, moderation: true, quiet_hours: { start: tokyo(-180), end: tokyo(-60), time_zone: 'Asia/Tokyo' } });
    expect(await pushedFor('Pushed: quiet hours are over')).toBe(true);

    // Settings a client cannot have meant are refused whole, and the stored ones stay.
    const before = (await profile()).push_settings;
    for (const bad of [
      { replies: true, moderation: true, quiet_hours: { start: '25:00', end: '07:00', time_zone: 'UTC' } },
      { replies: true, moderation: true, quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Mars/Olympus' } },
      { replies: 'yes', moderation: true, quiet_hours: null },
    ]) {
      const res = await setSettings(bad);
      expect(res.status === 400 || res.body.rejected?.length > 0, res.text).toBe(true);
    }
    expect((await profile()).push_settings).toEqual(before);
    await as(ada).del('/push/subscription', { endpoint: device.endpoint });
  });

  it('stop() (a shutdown) lets the push being sent finish and settle, and takes no more', async () => {
    const dee = await createTestUser('Dee Stopping');
    const { subscription } = receiver.device('dee-phone');
    expect((await as(dee).put('/push/subscription', subscription)).status).toBe(201);
    // A slow push service: the answer comes after the stop was asked for.
    receiver.answer('dee-phone', { status: 201, delayMs: 300 });
    const running = sender();
    const attempts = receiver.attempts.length;
    const topic = await makeTopic(as(dee), { title: 'Pushed across a shutdown' });
    const reply = await makeResponse(as(bob), { topic_id: topic.id, content: 'Sent while the server stops' });
    await until(() => receiver.attempts.length > attempts, 'the push under way');
    await running.stop();
    // Delivered and settled (its queue row gone), not left claimed for another process to send again.
    expect(receiver.received.some((p) => (p.payload as PushPayload).response_id === reply.id)).toBe(true);
    expect(await server.store.push.depth()).toBe(0);
    // Stopped: a new notification stays queued for the next start.
    await makeResponse(as(bob), { topic_id: topic.id, content: 'Queued for the next start' });
    expect(await server.store.push.depth()).toBe(1);
    await as(dee).del('/push/subscription', { endpoint: subscription.endpoint });
  });

  it('wakes only for queued pushes: a reply to someone without a device claims nothing (a claim is a write)', async () => {
    const eve = await createTestUser('Eve Deviceless');
    let claims = 0;
    const push = server.store.push;
    const counting = {
      ...server.store,
      push: { ...push, claimDue: (...args: Parameters<typeof push.claimDue>) => (claims++, push.claimDue(...args)) },
    };
    const running = sender({ store: counting });
    await running.idle();
    claims = 0;
    const topic = await makeTopic(as(eve), { title: 'Nobody to push to' });
    await makeResponse(as(bob), { topic_id: topic.id, content: 'Eve has the bell, not a device' });
    expect((await as(eve).get(`/notifications/user/${eve.uid}`)).body).toHaveLength(1);
    await running.idle();
    expect(claims).toBe(0);
    // With a device the same reply wakes the sender and arrives.
    const { subscription } = receiver.device('eve-phone');
    expect((await as(eve).put('/push/subscription', subscription)).status).toBe(201);
    const before = receiver.received.length;
    await makeResponse(as(bob), { topic_id: topic.id, content: 'Now Eve has a phone' });
    await until(() => receiver.received.length > before, 'the push to the new device');
    expect(claims).toBeGreaterThan(0);
    await as(eve).del('/push/subscription', { endpoint: subscription.endpoint });
  });
});
