import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { generate } from 'selfsigned';
import { verifyContentDigest, type DigestVerdict } from '../../src/http/digest.js';
import { headerValue } from '../../src/http/message.js';
import { verifySignature, type SignatureVerdict } from '../../src/http/signature.js';
import {
  startReferenceServer,
  type DeliveryAttempt,
  type ReferenceOptions,
  type ReferenceServer,
} from '../../src/reference/server.js';
import { webhookFaults } from '../../src/reference/faults/webhooks.js';
import { registration, SignedCaller, testClient, type Reply } from '../helpers/signed-fetch-webhooks.js';
import { WAIT_MS } from '../helpers/waits.js';
import { HOLD_MS } from '../../src/reference/webhooks/creation-hold.js';

const NOT_FOUND = { code: '404', message: 'Not Found' };
const DELIVERY_COMPONENTS = ['@method', '@target-uri', 'content-digest', 'content-length', 'content-type'];
/** How long a test waits for a delivery before failing: far above a loopback round trip, far below the test timeout. */
const DEADLINE_MS = WAIT_MS;
/** A retry backoff or a delivery timeout no test outlives: what it holds back never comes within a test. */
const NEVER_MS = 10 * WAIT_MS;

/** The promise, or a failure naming what did not come within DEADLINE_MS. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ${what} within ${DEADLINE_MS} ms`)), DEADLINE_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// ---- the receiver: https on 127.0.0.1 with a self-signed certificate, one inbox per path -----------------------

interface Received {
  method: string;
  /** The URI the delivery was sent to, as a receiver reconstructs it. */
  url: string;
  headers: Array<[string, string]>;
  body: Buffer;
  payload: any;
}

class Inbox {
  private readonly received: Received[] = [];
  private readonly waiters: Array<(r: Received) => void> = [];
  private cursor = 0;
  /** Statuses to answer with, in order; 200 once exhausted. */
  readonly statuses: number[] = [];
  /** When set, answers wait for it (to keep a delivery in flight). */
  hold: Promise<void> | undefined;
  /** Called when a delivery has arrived, before any hold. */
  onArrival: (() => void) | undefined;

  accept(r: Received): void {
    this.received.push(r);
    this.waiters.splice(0).forEach((w) => w(r));
  }

  /** The next delivery not yet taken, waiting for it up to a deadline. */
  next(deadlineMs = DEADLINE_MS): Promise<Received> {
    if (this.cursor < this.received.length) return Promise.resolve(this.received[this.cursor++]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery within ${deadlineMs} ms`)), deadlineMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(this.received[this.cursor++]!);
      });
    });
  }

  get count(): number {
    return this.received.length;
  }
}

let receiver: Server;
let origin: string;
let receiverCert: string;
const inboxes = new Map<string, Inbox>();
let inboxSeq = 0;

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  receiverCert = pems.cert;
  receiver = createServer({ key: pems.private, cert: pems.cert }, async (req, res) => {
    const body = await readAll(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const inbox = inboxes.get(path);
    if (inbox === undefined) return res.writeHead(404).end();
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      payload = undefined;
    }
    inbox.onArrival?.();
    await inbox.hold;
    const status = inbox.statuses.shift() ?? 200;
    inbox.accept({ method: req.method ?? '', url: `https://${req.headers.host}${req.url}`, headers, body, payload });
    res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function newInbox(): { inbox: Inbox; url: string } {
  const path = `/hook/${++inboxSeq}`;
  const inbox = new Inbox();
  inboxes.set(path, inbox);
  return { inbox, url: `${origin}${path}` };
}

// ---- one reference server per test ---------------------------------------------------------------------------

const started: ReferenceServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

interface Setup {
  server: ReferenceServer;
  clientId: string;
  caller: SignedCaller;
  token: string;
  inbox: Inbox;
  url: string;
  /** Resolves with the first delivery record that matches. */
  attempt: (match: (a: DeliveryAttempt) => boolean) => Promise<DeliveryAttempt>;
}

async function setup(options: Partial<ReferenceOptions> = {}): Promise<Setup> {
  const client = testClient(`wh${inboxSeq + 1}`);
  const observers: Array<(a: DeliveryAttempt) => void> = [];
  const server = await startReferenceServer({
    clients: [registration(client)],
    webhookCa: receiverCert,
    deliveryBackoffMs: 10,
    // An attempt ends when the receiver answers, however long that takes on a busy machine: none times out by chance.
    deliveryTimeoutMs: WAIT_MS,
    onDelivery: (a) => observers.forEach((o) => o(a)),
    ...options,
  });
  started.push(server);
  const caller = new SignedCaller(server.baseUrl, client);
  const { token } = await caller.token();
  const attempt = (match: (a: DeliveryAttempt) => boolean) => {
    const seen = server.deliveries.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<DeliveryAttempt>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching delivery attempt within ${DEADLINE_MS} ms`)),
        DEADLINE_MS,
      );
      observers.push((a) => {
        if (!match(a)) return;
        clearTimeout(timer);
        resolve(a);
      });
    });
  };
  return { server, clientId: client.clientId, caller, token, ...newInbox(), attempt };
}

async function createWebhook(s: Setup, subscriptions: string[], url = s.url): Promise<Reply> {
  return s.caller.call('POST', '/webhooks', { token: s.token, body: { url, subscriptions } });
}

/** The key GET /webhooks/key publishes, whichever of the two forms the variant uses. */
async function publishedKey(s: Setup): Promise<{ keyId: string; key: KeyObject }> {
  const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
  expect(res.status).toBe(200);
  const data = res.body.data;
  if (data.key?.jwk) return { keyId: data.key.jwk.kid, key: createPublicKey({ key: data.key.jwk, format: 'jwk' }) };
  return { keyId: data.keyId, key: createPublicKey(data.publicKey) };
}

function verifyDelivery(
  d: Received,
  key: KeyObject,
  requiredComponents = DELIVERY_COMPONENTS,
): { digest: DigestVerdict; signature: SignatureVerdict } {
  return {
    digest: verifyContentDigest(headerValue(d.headers, 'content-digest'), d.body),
    signature: verifySignature(
      { method: d.method, url: d.url, headers: d.headers },
      { key, requiredComponents, requireCreated: true, requireExpires: true, skewSeconds: 5 },
    ),
  };
}

async function expectVerified(s: Setup, d: Received): Promise<void> {
  const { keyId, key } = await publishedKey(s);
  const verdict = verifyDelivery(d, key);
  expect(verdict.digest).toMatchObject({ ok: true });
  expect(verdict.signature.reason).toBeUndefined();
  expect(verdict.signature.ok).toBe(true);
  expect(verdict.signature.keyId).toBe(keyId);
}

// ---- configuration ---------------------------------------------------------------------------------------------

describe('webhook configuration', () => {
  it('answers 404 on every webhook endpoint before a webhook is created', async () => {
    const s = await setup();
    for (const [method, path, body] of [
      ['GET', '/webhooks', undefined],
      ['GET', '/webhooks/key', undefined],
      ['POST', '/webhooks/test', undefined],
      ['PUT', '/webhooks', { subscriptions: ['ALL'] }],
    ] as const) {
      const res = await s.caller.call(method, path, { token: s.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it('rejects a non-https URL, an unknown subscription and malformed bodies with 400, a non-JSON body with 415', async () => {
    const s = await setup();
    const bad: unknown[] = [
      { url: 'http://127.0.0.1:1/hook', subscriptions: ['ALL'] },
      { url: '/relative/hook', subscriptions: ['ALL'] },
      { url: 'ftp://example.com/hook', subscriptions: ['ALL'] },
      { url: 'https://user:pass@example.com/hook', subscriptions: ['ALL'] },
      { url: s.url, subscriptions: ['AUTH.REFRESHED'] },
      { url: s.url, subscriptions: ['auth'] },
      { url: s.url, subscriptions: 'ALL' },
      { url: s.url, subscriptions: [1] },
      { url: s.url },
      { subscriptions: ['ALL'] },
      { url: s.url, subscriptions: ['ALL'], active: true },
      [],
      '{',
    ];
    for (const body of bad) {
      const res = await s.caller.call('POST', '/webhooks', { token: s.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('400');
    }
    const form = await s.caller.call('POST', '/webhooks', {
      token: s.token,
      body: `url=${s.url}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect((await s.caller.call('GET', '/webhooks', { token: s.token })).status).toBe(404);
  });

  it('unknownSubscription=ignored and kept: an unknown name is accepted, then dropped from the list or listed', async () => {
    for (const [reading, listed] of [
      ['ignored', ['ALL', 'WEBHOOK.CREATED']],
      ['kept', ['ALL', 'AUTH.REFRESHED', 'WEBHOOK.CREATED']],
    ] as const) {
      const s = await setup({ choices: { unknownSubscription: reading } });
      expect((await createWebhook(s, ['ALL', 'AUTH.REFRESHED'])).status, reading).toBe(200);
      expect((await s.caller.call('GET', '/webhooks', { token: s.token })).body.data.subscriptions, reading).toEqual(
        listed,
      );
      // A name that is no string is refused whatever the server does with unknown names: "array of strings".
      const res = await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['ALL', 1] } });
      expect(res.status, reading).toBe(400);
    }
  });

  it('creates, reads, updates (replacing the subscriptions) and refuses a second creation', async () => {
    const s = await setup();
    const created = await createWebhook(s, ['AUTH', 'ACCOUNT']);
    expect(created.status).toBe(200);
    expect(created.body.code).toBe('200');
    const webhook = created.body.data;
    expect(webhook).toEqual({
      webhookId: expect.any(String),
      status: 'ACTIVE',
      url: s.url,
      subscriptions: ['AUTH', 'ACCOUNT', 'WEBHOOK.CREATED'],
      createdAt: expect.any(Number),
      updatedAt: webhook.createdAt,
    });
    expect((await s.caller.call('GET', '/webhooks', { token: s.token })).body.data).toEqual(webhook);

    const again = await createWebhook(s, ['ALL']);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('409');

    const keyBefore = await publishedKey(s);
    const updated = await s.caller.call('PUT', '/webhooks', {
      token: s.token,
      body: { subscriptions: ['AUTH.DELETED'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      webhookId: webhook.webhookId,
      url: s.url,
      subscriptions: ['AUTH.DELETED', 'WEBHOOK.CREATED'],
    });
    const moved = `${s.url}-moved`;
    const urlOnly = await s.caller.call('PUT', '/webhooks', { token: s.token, body: { url: moved } });
    expect(urlOnly.body.data).toMatchObject({ url: moved, subscriptions: ['AUTH.DELETED', 'WEBHOOK.CREATED'] });
    expect((await s.caller.call('GET', '/webhooks', { token: s.token })).body.data).toEqual(urlOnly.body.data);
    // The key is made when the webhook is configured and kept across updates.
    expect((await publishedKey(s)).keyId).toBe(keyBefore.keyId);

    for (const body of [{}, { url: 'http://example.com/x' }, { subscriptions: ['NOPE'] }]) {
      expect((await s.caller.call('PUT', '/webhooks', { token: s.token, body })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });

  it('publishes the key as SPKI PEM (strict) with its keyid', async () => {
    const s = await setup();
    await createWebhook(s, ['ALL']);
    const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      keyId: expect.any(String),
      algorithm: 'ed25519',
      publicKey: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
    });
    expect(createPublicKey(res.body.data.publicKey).asymmetricKeyType).toBe('ed25519');
  });

  it('publishes the key as a JWK and answers the creation with 201 in the alt variant, and deliveries verify with it', async () => {
    const s = await setup({ variant: 'alt' });
    const created = await createWebhook(s, ['WEBHOOK']);
    expect(created.status).toBe(201);
    const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
    expect(res.body.data.key.jwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      kid: expect.any(String),
      referenceExtension: 'added',
    });
    const d = await s.inbox.next();
    expect(d.payload.event).toBe('WEBHOOK.CREATED');
    await expectVerified(s, d);
  });

  it('webhookKeyFormat=jwks: publishes a JWK set, and deliveries verify with its key', async () => {
    const s = await setup({ choices: { webhookKeyFormat: 'jwks' } });
    await createWebhook(s, ['WEBHOOK']);
    const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
    expect(res.body.data).toEqual({
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: expect.any(String) }],
    });
    const [jwk] = res.body.data.keys;
    const d = await s.inbox.next();
    const verdict = verifyDelivery(d, createPublicKey({ key: jwk, format: 'jwk' }));
    expect([verdict.digest.ok, verdict.signature.ok, verdict.signature.keyId]).toEqual([true, true, jwk.kid]);
  });

  it('webhookAnswer=list: GET /webhooks answers a list holding the webhook; POST and PUT the Webhook', async () => {
    const s = await setup({ choices: { webhookAnswer: 'list' } });
    const created = await createWebhook(s, ['WEBHOOK']);
    expect(created.body.data).toMatchObject({ url: s.url, subscriptions: ['WEBHOOK', 'WEBHOOK.CREATED'] });
    const put = await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['ALL'] } });
    expect(put.body.data).toMatchObject({ webhookId: created.body.data.webhookId });
    const listed = await s.caller.call('GET', '/webhooks', { token: s.token });
    expect(listed.body).toEqual({ data: [put.body.data], code: '200', message: 'Success' });
    // The key is no configuration: it stays an object.
    expect((await s.caller.call('GET', '/webhooks/key', { token: s.token })).body.data).toMatchObject({
      publicKey: expect.any(String),
    });
  });

  it('gives each client its own key unless webhookKey fixes one', async () => {
    const fixed = (await import('../../src/http/keys.js')).generateEd25519();
    const s = await setup({ webhookKey: fixed.privateKeyPem });
    await createWebhook(s, ['ALL']);
    const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
    expect(res.body.data.publicKey).toBe(fixed.publicKeyPem);
    await expect(startReferenceServer({ clients: [], webhookKey: 'not a key' })).rejects.toThrow(/^webhookKey /);
  });
});

// ---- deliveries ------------------------------------------------------------------------------------------------

describe('webhook deliveries', () => {
  it('delivers WEBHOOK.CREATED, signed per RFC 9421 with the published key and with a Content-Digest', async () => {
    const s = await setup();
    const webhook = (await createWebhook(s, ['AUTH'])).body.data;
    const d = await s.inbox.next();
    expect(d.method).toBe('POST');
    expect(d.url).toBe(s.url);
    expect(headerValue(d.headers, 'content-type')).toBe('application/json');
    expect(headerValue(d.headers, 'content-length')).toBe(String(d.body.length));
    expect(d.payload).toEqual({
      eventId: expect.any(String),
      event: 'WEBHOOK.CREATED',
      webhookId: webhook.webhookId,
      occurredAt: expect.any(Number),
      data: webhook,
    });
    await expectVerified(s, d);
    const verdict = verifyDelivery(d, (await publishedKey(s)).key);
    expect(verdict.signature.components).toEqual(DELIVERY_COMPONENTS);
    expect(verdict.signature.label).toBe('sig1');
  });

  it('delivers AUTH.CREATED on a token and AUTH.DELETED on its revocation, without the token itself', async () => {
    const s = await setup();
    await createWebhook(s, ['AUTH']);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    const issued = await s.caller.token();
    const created = await s.inbox.next();
    expect(created.payload).toMatchObject({ event: 'AUTH.CREATED', data: { tokenId: issued.tokenId } });
    expect(created.body.toString('utf8')).not.toContain(issued.token);
    await expectVerified(s, created);
    expect((await s.caller.call('POST', '/oauth/revoke', { token: issued.token })).status).toBe(200);
    const deleted = await s.inbox.next();
    expect(deleted.payload).toMatchObject({ event: 'AUTH.DELETED', data: { tokenId: issued.tokenId } });
    await expectVerified(s, deleted);
  });

  it("deliveryOrder=any-order: holds AUTH.CREATED until its token's next event (the revoke goes first), or lets it go alone", async () => {
    const s = await setup({ choices: { deliveryOrder: 'any-order' } });
    await createWebhook(s, ['AUTH']);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    const alone = await s.caller.token();
    expect((await s.inbox.next()).payload).toMatchObject({ event: 'AUTH.CREATED', data: { tokenId: alone.tokenId } });
    const issued = await s.caller.token();
    expect((await s.caller.call('POST', '/oauth/revoke', { token: issued.token })).status).toBe(200);
    const first = await s.inbox.next();
    const second = await s.inbox.next();
    expect([first.payload.event, second.payload.event]).toEqual(['AUTH.DELETED', 'AUTH.CREATED']);
    expect(second.payload.data.tokenId).toBe(issued.tokenId);
  });

  it('deliveryOrder=any-order: a 429 the client got meanwhile holds AUTH.CREATED until 1 s past its window', async () => {
    // The suite's revoke may meet the rate limit and wait for Retry-After: the creation must not go first meanwhile.
    const s = await setup({ choices: { deliveryOrder: 'any-order' }, rateLimitPerSecond: 3 });
    await createWebhook(s, ['AUTH']);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    await s.caller.token();
    let throttledAt: number | undefined;
    for (let i = 0; i < 20 && throttledAt === undefined; i++) {
      const before = Date.now();
      const res = await s.caller.call('GET', '/webhooks/key', { token: s.token });
      if (res.status === 429) throttledAt = before;
    }
    if (throttledAt === undefined) throw new Error('the rate limit never answered 429');
    // The window of the 429 ends at the next whole second of the server's clock, at the earliest the one after `before`.
    const windowEnd = (Math.floor(throttledAt / 1000) + 1) * 1000;
    const created = await s.attempt((a) => a.event === 'AUTH.CREATED');
    const arrived = Date.now();
    expect(created.event).toBe('AUTH.CREATED');
    expect(arrived).toBeGreaterThanOrEqual(windowEnd + HOLD_MS - 1);
  });

  it('eventPayload=in-header: the payload names no event, the X-Event-Type header does, signed with the rest', async () => {
    const s = await setup({ choices: { eventPayload: 'in-header' } });
    const webhook = (await createWebhook(s, ['AUTH'])).body.data;
    const d = await s.inbox.next();
    expect(d.payload).toEqual({
      id: expect.any(String),
      webhookId: webhook.webhookId,
      occurredAt: expect.any(Number),
      data: webhook,
    });
    expect(headerValue(d.headers, 'x-event-type')).toBe('WEBHOOK.CREATED');
    expect(d.headers.map(([n]) => n)).toContain('X-Event-Type');
    await expectVerified(s, d);
    const verdict = verifyDelivery(d, (await publishedKey(s)).key);
    expect(verdict.signature.components).toEqual([...DELIVERY_COMPONENTS, 'x-event-type']);
  });

  it('eventPayload=cloudevents: the binary mode, ce- attributes as headers and the data as the body', async () => {
    const s = await setup({ choices: { eventPayload: 'cloudevents', deliveryHeaders: 'extra' } });
    await createWebhook(s, ['AUTH']);
    await s.inbox.next();
    const issued = await s.caller.token();
    const d = await s.inbox.next();
    expect(d.payload).toEqual({ tokenId: issued.tokenId, clientId: expect.any(String), createdAt: expect.any(Number) });
    expect(headerValue(d.headers, 'ce-specversion')).toBe('1.0');
    expect(headerValue(d.headers, 'ce-type')).toBe('com.example.investment.auth.created');
    expect(headerValue(d.headers, 'ce-id')).toBe(headerValue(d.headers, 'x-event-id'));
    expect(headerValue(d.headers, 'ce-source')).toMatch(/^\/webhooks\/.+/);
    expect(new Date(headerValue(d.headers, 'ce-time')!).toISOString()).toBe(headerValue(d.headers, 'ce-time'));
    await expectVerified(s, d);
  });

  /** Two events of the client at once: a server that batches holds the first until the second comes, and sends both. */
  function twoEvents(s: Setup): void {
    const at = Math.floor(Date.now() / 1000);
    s.server.events.emit({ name: 'AUTH.CREATED', clientId: s.clientId, occurredAt: at, data: { tokenId: 'a' } });
    s.server.events.emit({ name: 'AUTH.DELETED', clientId: s.clientId, occurredAt: at, data: { tokenId: 'a' } });
  }

  it('eventPayload=batch: every body a list of events, an event alone once the hold ends, two together when the next comes', async () => {
    const s = await setup({ choices: { eventPayload: 'batch' } });
    const webhook = (await createWebhook(s, ['AUTH'])).body.data;
    const alone = await s.inbox.next();
    expect(alone.payload).toEqual({
      events: [
        { eventId: expect.any(String), event: 'WEBHOOK.CREATED', occurredAt: expect.any(Number), data: webhook },
      ],
    });
    expect(headerValue(alone.headers, 'content-type')).toBe('application/json');
    await expectVerified(s, alone);
    twoEvents(s);
    const both = await s.inbox.next();
    expect(both.payload.events.map((e: { event: string; data: unknown }) => [e.event, e.data])).toEqual([
      ['AUTH.CREATED', { tokenId: 'a' }],
      ['AUTH.DELETED', { tokenId: 'a' }],
    ]);
    await expectVerified(s, both);
  });

  it('eventPayload=batch with deliveryOrder=duplicates: the same batch twice, the same body each time', async () => {
    const s = await setup({
      choices: { eventPayload: 'batch', deliveryOrder: 'duplicates', deliveryHeaders: 'extra' },
    });
    await createWebhook(s, ['AUTH']);
    await s.inbox.next();
    await s.inbox.next();
    twoEvents(s);
    const [one, two] = [await s.inbox.next(), await s.inbox.next()];
    expect(one.payload.events).toHaveLength(2);
    expect(two.body.equals(one.body)).toBe(true);
    // A batch names no one event in a header: X-Event-Id names the request, X-Event-Type is left out.
    expect(headerValue(one.headers, 'x-event-id')).toMatch(/^batch-/);
    expect(headerValue(one.headers, 'x-event-type')).toBeUndefined();
  });

  it('eventPayload=cloudevents-batch: a JSON array of structured CloudEvents, application/cloudevents-batch+json', async () => {
    const s = await setup({ choices: { eventPayload: 'cloudevents-batch' } });
    await createWebhook(s, ['AUTH']);
    await s.inbox.next();
    twoEvents(s);
    const d = await s.inbox.next();
    expect(headerValue(d.headers, 'content-type')).toBe('application/cloudevents-batch+json');
    expect(d.payload.map((e: { type: string; specversion: string }) => [e.specversion, e.type])).toEqual([
      ['1.0', 'com.example.investment.auth.created'],
      ['1.0', 'com.example.investment.auth.deleted'],
    ]);
    await expectVerified(s, d);
  });

  it('eventPayload=cloudevents-structured: the attributes and the data in one JSON body, application/cloudevents+json', async () => {
    const s = await setup({ choices: { eventPayload: 'cloudevents-structured' } });
    const webhook = (await createWebhook(s, ['AUTH'])).body.data;
    const d = await s.inbox.next();
    expect(headerValue(d.headers, 'content-type')).toBe('application/cloudevents+json');
    expect(d.payload).toEqual({
      specversion: '1.0',
      id: expect.any(String),
      source: `/webhooks/${webhook.webhookId}`,
      type: 'com.example.investment.webhook.created',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      datacontenttype: 'application/json',
      data: webhook,
    });
    await expectVerified(s, d);
  });

  it('deliveryHeaders=standard-webhooks: webhook-id, webhook-timestamp and an attempt counter, none of them signed', async () => {
    const s = await setup({ choices: { deliveryHeaders: 'standard-webhooks' } });
    s.inbox.statuses.push(503);
    await createWebhook(s, ['AUTH']);
    const [first, retry] = [await s.inbox.next(), await s.inbox.next()];
    expect(headerValue(first.headers, 'webhook-id')).toBe(first.payload.eventId);
    expect(headerValue(retry.headers, 'webhook-id')).toBe(first.payload.eventId);
    expect(headerValue(first.headers, 'webhook-timestamp')).toMatch(/^\d{10}$/);
    expect([
      headerValue(first.headers, 'x-delivery-attempt'),
      headerValue(retry.headers, 'x-delivery-attempt'),
    ]).toEqual(['1', '2']);
    await expectVerified(s, retry);
    const verdict = verifyDelivery(retry, (await publishedKey(s)).key);
    expect(verdict.signature.components).toEqual(DELIVERY_COMPONENTS);
  });

  it('deliverySignature=long-window: expires three days after created', async () => {
    const s = await setup({ choices: { deliverySignature: 'long-window' } });
    await createWebhook(s, ['AUTH']);
    const d = await s.inbox.next();
    await expectVerified(s, d);
    const { created, expires } = verifyDelivery(d, (await publishedKey(s)).key).signature.params ?? {};
    expect(Number(expires) - Number(created)).toBe(3 * 24 * 60 * 60);
  });

  it('delivers WEBHOOK.UPDATED to the updated URL, by exact name', async () => {
    const s = await setup();
    await createWebhook(s, ['WEBHOOK.UPDATED']);
    await s.inbox.next();
    const other = newInbox();
    const updated = await s.caller.call('PUT', '/webhooks', {
      token: s.token,
      body: { url: other.url, subscriptions: ['WEBHOOK.UPDATED'] },
    });
    const d = await other.inbox.next();
    expect(d.payload).toMatchObject({ event: 'WEBHOOK.UPDATED', data: updated.body.data });
    await expectVerified(s, d);
    expect(s.inbox.count).toBe(1);
  });

  it('delivers the test event whatever the subscriptions, and answers the test request with 200', async () => {
    const s = await setup();
    await createWebhook(s, ['ACCOUNT']);
    await s.inbox.next();
    const res = await s.caller.call('POST', '/webhooks/test', { token: s.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ event: 'WEBHOOK.TEST', eventId: expect.any(String), status: 'QUEUED' });
    const d = await s.inbox.next();
    expect(d.payload).toMatchObject({ event: 'WEBHOOK.TEST', eventId: res.body.data.eventId });
    await expectVerified(s, d);
  });

  it('does not deliver unsubscribed events: the next delivery after a token is the next subscribed one', async () => {
    const s = await setup();
    await createWebhook(s, ['WEBHOOK', 'ACCOUNT']);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    await s.caller.token();
    // Deliveries of a client go out one at a time in event order, so an AUTH.CREATED would arrive before this.
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['WEBHOOK', 'ACCOUNT'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    await s.attempt((a) => a.event === 'WEBHOOK.UPDATED' && a.outcome === 'delivered');
    expect(s.server.deliveries.map((a) => a.event)).toEqual(['WEBHOOK.CREATED', 'WEBHOOK.UPDATED']);
  });

  it('delivers every event to ALL', async () => {
    const s = await setup();
    await createWebhook(s, ['ALL']);
    const issued = await s.caller.token();
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['ALL'] } });
    const events = [];
    for (let i = 0; i < 3; i++) events.push((await s.inbox.next()).payload);
    expect(events.map((e) => e.event)).toEqual(['WEBHOOK.CREATED', 'AUTH.CREATED', 'WEBHOOK.UPDATED']);
    expect(events[1].data.tokenId).toBe(issued.tokenId);
  });

  it('delivers only to the webhook of the client the event belongs to', async () => {
    const a = testClient('alpha');
    const b = testClient('beta');
    const server = await startReferenceServer({
      clients: [registration(a), registration(b)],
      webhookCa: receiverCert,
      deliveryBackoffMs: 10,
      deliveryTimeoutMs: WAIT_MS,
    });
    started.push(server);
    const callerA = new SignedCaller(server.baseUrl, a);
    const callerB = new SignedCaller(server.baseUrl, b);
    const tokenA = (await callerA.token()).token;
    const tokenB = (await callerB.token()).token;
    const hookA = newInbox();
    const hookB = newInbox();
    await callerA.call('POST', '/webhooks', { token: tokenA, body: { url: hookA.url, subscriptions: ['ALL'] } });
    await callerB.call('POST', '/webhooks', { token: tokenB, body: { url: hookB.url, subscriptions: ['ALL'] } });
    await hookA.inbox.next();
    await hookB.inbox.next();
    const issuedB = await callerB.token();
    await callerA.call('POST', '/webhooks/test', { token: tokenA });
    // Events are queued when they occur, so B's AUTH.CREATED would be ahead of A's test event in A's queue.
    expect((await hookA.inbox.next()).payload.event).toBe('WEBHOOK.TEST');
    expect((await hookB.inbox.next()).payload).toMatchObject({
      event: 'AUTH.CREATED',
      data: { tokenId: issuedB.tokenId, clientId: 'beta' },
    });
  });

  it('retries after a 503 and signs each attempt afresh, with the same eventId', async () => {
    const s = await setup();
    s.inbox.statuses.push(503);
    await createWebhook(s, ['WEBHOOK']);
    const first = await s.inbox.next();
    const second = await s.inbox.next();
    expect(second.payload.eventId).toBe(first.payload.eventId);
    await expectVerified(s, second);
    await s.attempt((a) => a.outcome === 'delivered');
    expect(s.server.deliveries.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [1, 'retrying', 503],
      [2, 'delivered', 200],
    ]);
  });

  it('gives up after three attempts, and does not retry a 4xx', async () => {
    const s = await setup();
    s.inbox.statuses.push(500, 502, 503, 400);
    await createWebhook(s, ['WEBHOOK']);
    await s.attempt((a) => a.outcome === 'failed');
    await s.caller.call('POST', '/webhooks/test', { token: s.token });
    await s.attempt((a) => a.event === 'WEBHOOK.TEST' && a.outcome === 'failed');
    expect(s.server.deliveries.map((a) => [a.event, a.attempt, a.outcome, a.status])).toEqual([
      ['WEBHOOK.CREATED', 1, 'retrying', 500],
      ['WEBHOOK.CREATED', 2, 'retrying', 502],
      ['WEBHOOK.CREATED', 3, 'failed', 503],
      ['WEBHOOK.TEST', 1, 'failed', 400],
    ]);
  });

  it('deliveriesSettled: at once with nothing caused; else once every delivery has had its last attempt, retries included', async () => {
    const s = await setup();
    await within(s.server.deliveriesSettled(), 'settled with nothing caused');
    expect(s.server.deliveries).toEqual([]);
    s.inbox.statuses.push(503, 500);
    await createWebhook(s, ['WEBHOOK']);
    await within(s.server.deliveriesSettled(), 'settled after the retries');
    expect(s.server.deliveries.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [1, 'retrying', 503],
      [2, 'retrying', 500],
      [3, 'delivered', 200],
    ]);
  });

  it('deliveriesSettled waits for a delivery held on a timer (eventPayload=batch) to go and be answered', async () => {
    const s = await setup({ choices: { eventPayload: 'batch' } });
    await createWebhook(s, ['WEBHOOK']);
    await within(s.server.deliveriesSettled(), 'settled after the batch hold');
    expect(s.server.deliveries.map((a) => [a.event, a.outcome])).toEqual([['WEBHOOK.CREATED', 'delivered']]);
  });

  it('refuses a receiver whose certificate it does not trust (no webhookCa), as a retried network error', async () => {
    const s = await setup({ webhookCa: undefined, deliveryRetries: 1 });
    await createWebhook(s, ['ALL']);
    const failed = await s.attempt((a) => a.outcome === 'failed');
    expect(failed.attempt).toBe(2);
    expect(failed.error).toMatch(/self[- ]signed|certificate/i);
    expect(s.server.deliveries[0]).toMatchObject({ attempt: 1, outcome: 'retrying' });
    expect(s.inbox.count).toBe(0);
  });

  it('drops the oldest pending delivery past the per-client bound', async () => {
    let release!: () => void;
    const s = await setup({ maxPendingDeliveries: 1 });
    s.inbox.hold = new Promise<void>((resolve) => (release = resolve));
    await createWebhook(s, ['WEBHOOK']);
    // WEBHOOK.CREATED is in flight (held by the receiver); the first test event waits, the second pushes it out.
    const one = (await s.caller.call('POST', '/webhooks/test', { token: s.token })).body.data.eventId;
    const two = (await s.caller.call('POST', '/webhooks/test', { token: s.token })).body.data.eventId;
    const dropped = await s.attempt((a) => a.outcome === 'dropped');
    expect(dropped.eventId).toBe(one);
    release();
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    expect((await s.inbox.next()).payload.eventId).toBe(two);
  });

  it('does not hold up deliveries to a new URL behind retries to the one the client left', async () => {
    // The retry is not due within the test, however long the new URL's delivery takes to arrive.
    const s = await setup({ deliveryBackoffMs: NEVER_MS });
    s.inbox.statuses.push(503);
    await createWebhook(s, ['ALL']);
    await s.attempt((a) => a.event === 'WEBHOOK.CREATED' && a.outcome === 'retrying');
    const other = newInbox();
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { url: other.url, subscriptions: ['ALL'] } });
    expect((await other.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    expect(s.server.deliveries.filter((a) => a.event === 'WEBHOOK.CREATED').map((a) => a.outcome)).toEqual([
      'retrying',
    ]);
  });

  it('close() aborts a delivery in flight', async () => {
    let release!: () => void;
    // Held by the receiver and given all the time there is: only close() can end it, so close() resolving proves it did.
    const s = await setup({ deliveryTimeoutMs: NEVER_MS });
    s.inbox.hold = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (s.inbox.onArrival = resolve));
    await createWebhook(s, ['WEBHOOK']);
    await arrived;
    await s.server.close();
    expect(s.server.deliveries).toEqual([
      expect.objectContaining({ event: 'WEBHOOK.CREATED', attempt: 1, outcome: 'cancelled' }),
    ]);
    release();
  });

  it('close() cancels a pending retry and leaves no timer behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    // The retry is not due within the test: close() resolving proves it did not wait for it.
    const s = await setup({ deliveryBackoffMs: NEVER_MS });
    s.inbox.statuses.push(503);
    await createWebhook(s, ['WEBHOOK']);
    await s.attempt((a) => a.outcome === 'retrying');
    const waiting = timers();
    await s.server.close();
    expect(timers()).toBeLessThan(waiting);
    expect(s.server.deliveries.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'retrying'],
      [1, 'cancelled'],
    ]);
    expect(s.inbox.count).toBe(1);
  });
});

// ---- faults ----------------------------------------------------------------------------------------------------

describe('webhook faults', () => {
  it('declares each fault for the webhooks suite, with a hook and the requirements it breaks', () => {
    expect(webhookFaults.map((f) => f.name).sort()).toEqual([
      'webhooks.account-subscription-refused',
      'webhooks.body-not-validated',
      'webhooks.config-fields-missing',
      'webhooks.created-not-auto-subscribed',
      'webhooks.digest-mismatch',
      'webhooks.digest-not-covered',
      'webhooks.domain-names-ignored',
      'webhooks.exact-name-as-domain',
      'webhooks.exact-names-ignored',
      'webhooks.expired-signature',
      'webhooks.form-encoded-delivery',
      'webhooks.http-url-accepted',
      'webhooks.no-auth-created-event',
      'webhooks.no-webhook-created-event',
      'webhooks.no-webhook-updated-event',
      'webhooks.status-lowercase',
      'webhooks.subscriptions-appended',
      'webhooks.test-endpoint-missing',
      'webhooks.test-not-delivered',
      'webhooks.unsigned-delivery',
      'webhooks.unsubscribed-delivered',
      'webhooks.unsubscribed-delivered-late',
      'webhooks.url-not-stored',
      'webhooks.wrong-signing-key',
    ]);
    for (const f of webhookFaults) {
      expect(f.suite).toBe('webhooks');
      // A fault acts through a route flag or a middleware; one with neither would change nothing.
      expect(f.flag === true || typeof f.middleware === 'function', f.name).toBe(true);
      expect(f.breaks.length, f.name).toBeGreaterThan(0);
      expect(f.description.length).toBeGreaterThan(10);
    }
  });

  async function firstDelivery(
    fault: string,
    subscriptions = ['WEBHOOK'],
  ): Promise<{ s: Setup; d: Received; key: KeyObject }> {
    const s = await setup({ faults: [fault] });
    await createWebhook(s, subscriptions);
    const d = await s.inbox.next();
    return { s, d, key: (await publishedKey(s)).key };
  }

  it('webhooks.wrong-signing-key: the signature does not verify with the published key', async () => {
    const { d, key } = await firstDelivery('webhooks.wrong-signing-key');
    const verdict = verifyDelivery(d, key);
    expect(verdict.digest.ok).toBe(true);
    expect(verdict.signature.ok).toBe(false);
    expect(verdict.signature.reason).toMatch(/does not verify/);
  });

  it('webhooks.digest-mismatch: the Content-Digest is not that of the body', async () => {
    const { d, key } = await firstDelivery('webhooks.digest-mismatch');
    const verdict = verifyDelivery(d, key);
    expect(verdict.digest).toEqual({ ok: false, reason: 'Content-Digest sha-512 does not match the body' });
    expect(verdict.signature.ok).toBe(true);
  });

  it('webhooks.unsigned-delivery: no Signature headers', async () => {
    const { d, key } = await firstDelivery('webhooks.unsigned-delivery');
    expect(headerValue(d.headers, 'signature')).toBeUndefined();
    expect(headerValue(d.headers, 'signature-input')).toBeUndefined();
    expect(verifyDelivery(d, key).signature.reason).toBe('no Signature-Input header');
  });

  it('webhooks.digest-not-covered: the signature leaves content-digest out', async () => {
    const { d, key } = await firstDelivery('webhooks.digest-not-covered');
    expect(verifyDelivery(d, key).signature.reason).toBe('the signature does not cover "content-digest"');
    expect(verifyDelivery(d, key, []).signature.ok).toBe(true);
  });

  it('webhooks.unsubscribed-delivered: a token is delivered to a webhook subscribed to WEBHOOK only', async () => {
    const { s } = await firstDelivery('webhooks.unsubscribed-delivered');
    await s.caller.token();
    expect((await s.inbox.next()).payload.event).toBe('AUTH.CREATED');
  });

  it('webhooks.no-auth-created-event: a token delivers nothing even to AUTH', async () => {
    const { s } = await firstDelivery('webhooks.no-auth-created-event', ['AUTH']);
    const issued = await s.caller.token();
    await s.caller.call('POST', '/oauth/revoke', { token: issued.token });
    expect((await s.inbox.next()).payload.event).toBe('AUTH.DELETED');
  });

  it('webhooks.subscriptions-appended: PUT keeps the earlier subscriptions', async () => {
    const s = await setup({ faults: ['webhooks.subscriptions-appended'] });
    await createWebhook(s, ['AUTH.CREATED']);
    const res = await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['AUTH.DELETED'] } });
    expect(res.body.data.subscriptions).toEqual(['AUTH.CREATED', 'WEBHOOK.CREATED', 'AUTH.DELETED']);
  });

  it('webhooks.http-url-accepted: a plain http URL is accepted on create', async () => {
    const s = await setup({ faults: ['webhooks.http-url-accepted'] });
    const res = await createWebhook(s, ['ALL'], 'http://127.0.0.1:9/hook');
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe('http://127.0.0.1:9/hook');
  });

  it('webhooks.created-not-auto-subscribed: WEBHOOK.CREATED is neither listed nor delivered', async () => {
    const s = await setup({ faults: ['webhooks.created-not-auto-subscribed'] });
    const res = await createWebhook(s, ['AUTH']);
    expect(res.body.data.subscriptions).toEqual(['AUTH']);
    await s.caller.call('POST', '/webhooks/test', { token: s.token });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.TEST');
  });

  it('webhooks.unsubscribed-delivered-late: an unsubscribed token is delivered after the next subscribed event', async () => {
    const { s } = await firstDelivery('webhooks.unsubscribed-delivered-late');
    await s.caller.token();
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['WEBHOOK'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    expect((await s.inbox.next()).payload.event).toBe('AUTH.CREATED');
  });

  it('webhooks.exact-names-ignored: AUTH.CREATED selects nothing, the domain still does', async () => {
    const { s } = await firstDelivery('webhooks.exact-names-ignored', ['AUTH.CREATED', 'WEBHOOK']);
    await s.caller.token();
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['AUTH', 'WEBHOOK'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    await s.caller.token();
    expect((await s.inbox.next()).payload.event).toBe('AUTH.CREATED');
  });

  it('webhooks.exact-name-as-domain: AUTH.CREATED delivers AUTH.DELETED too', async () => {
    const s = await setup({ faults: ['webhooks.exact-name-as-domain'] });
    await createWebhook(s, ['AUTH.CREATED']);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    const issued = await s.caller.token();
    await s.caller.call('POST', '/oauth/revoke', { token: issued.token });
    expect((await s.inbox.next()).payload.event).toBe('AUTH.CREATED');
    expect((await s.inbox.next()).payload.event).toBe('AUTH.DELETED');
  });

  it('webhooks.domain-names-ignored: AUTH selects nothing, an exact name still does', async () => {
    const s = await setup({ faults: ['webhooks.domain-names-ignored'] });
    await createWebhook(s, ['AUTH', 'WEBHOOK.UPDATED']);
    await s.caller.token();
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['AUTH', 'WEBHOOK.UPDATED'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
  });

  it('webhooks.url-not-stored: PUT answers the new url, GET and the deliveries keep the old one', async () => {
    const { s } = await firstDelivery('webhooks.url-not-stored', ['WEBHOOK']);
    const other = newInbox();
    const res = await s.caller.call('PUT', '/webhooks', {
      token: s.token,
      body: { url: other.url, subscriptions: ['WEBHOOK'] },
    });
    expect(res.body.data.url).toBe(other.url);
    expect((await s.caller.call('GET', '/webhooks', { token: s.token })).body.data.url).toBe(s.url);
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    expect(other.inbox.count).toBe(0);
  });

  it('webhooks.account-subscription-refused: ACCOUNT is refused with 400, on create and on update', async () => {
    const s = await setup({ faults: ['webhooks.account-subscription-refused'] });
    expect((await createWebhook(s, ['ACCOUNT'])).status).toBe(400);
    expect((await createWebhook(s, ['ALL'])).status).toBe(200);
    expect(
      (await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['AUTH', 'ACCOUNT'] } }))
        .status,
    ).toBe(400);
  });

  it('webhooks.config-fields-missing: GET /webhooks leaves out createdAt and updatedAt, the answer of POST keeps them', async () => {
    const s = await setup({ faults: ['webhooks.config-fields-missing'] });
    expect(Object.keys((await createWebhook(s, ['ALL'])).body.data)).toContain('createdAt');
    const read = (await s.caller.call('GET', '/webhooks', { token: s.token })).body.data;
    expect(Object.keys(read).sort()).toEqual(['status', 'subscriptions', 'url', 'webhookId']);
  });

  it('webhooks.expired-signature: each delivery is signed with a window that ended 5 minutes ago', async () => {
    const { d, key } = await firstDelivery('webhooks.expired-signature');
    const verdict = verifyDelivery(d, key);
    expect(verdict.signature.code).toBe('SIGNATURE_EXPIRED');
    const { created, expires } = verdict.signature.params as { created: number; expires: number };
    expect(expires - created).toBe(300);
    expect(Math.floor(Date.now() / 1000) - expires).toBeGreaterThanOrEqual(290);
  });

  it('webhooks.form-encoded-delivery: the body is form-encoded, digested and signed as sent', async () => {
    const { s, d, key } = await firstDelivery('webhooks.form-encoded-delivery');
    expect(d.payload).toBeUndefined();
    expect(headerValue(d.headers, 'content-type')).toBe('application/x-www-form-urlencoded');
    const fields = new URLSearchParams(d.body.toString('utf8'));
    expect(fields.get('event')).toBe('WEBHOOK.CREATED');
    expect(JSON.parse(fields.get('data')!)).toMatchObject({ url: s.url });
    expect(verifyDelivery(d, key)).toMatchObject({ digest: { ok: true }, signature: { ok: true } });
  });

  it('webhooks.test-endpoint-missing: POST /webhooks/test answers 404 and delivers nothing', async () => {
    const { s } = await firstDelivery('webhooks.test-endpoint-missing');
    expect((await s.caller.call('POST', '/webhooks/test', { token: s.token })).status).toBe(404);
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['WEBHOOK'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
  });

  it('webhooks.test-not-delivered: POST /webhooks/test answers 200 and delivers nothing', async () => {
    const { s } = await firstDelivery('webhooks.test-not-delivered');
    expect((await s.caller.call('POST', '/webhooks/test', { token: s.token })).status).toBe(200);
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['WEBHOOK'] } });
    expect((await s.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
  });

  it('webhooks.no-webhook-created-event and no-webhook-updated-event: POST or PUT /webhooks emits nothing', async () => {
    const created = await setup({ faults: ['webhooks.no-webhook-created-event'] });
    await createWebhook(created, ['ALL']);
    await created.caller.call('PUT', '/webhooks', { token: created.token, body: { subscriptions: ['ALL'] } });
    expect((await created.inbox.next()).payload.event).toBe('WEBHOOK.UPDATED');
    const updated = await setup({ faults: ['webhooks.no-webhook-updated-event'] });
    await createWebhook(updated, ['ALL']);
    await updated.caller.call('PUT', '/webhooks', { token: updated.token, body: { subscriptions: ['ALL'] } });
    await updated.caller.call('POST', '/webhooks/test', { token: updated.token });
    expect((await updated.inbox.next()).payload.event).toBe('WEBHOOK.CREATED');
    expect((await updated.inbox.next()).payload.event).toBe('WEBHOOK.TEST');
  });

  it('generates a new key for a webhook on request (the other reading of "generated when the webhook is configured")', async () => {
    const regenerated: boolean[] = [];
    const s = await setup({
      middleware: [
        async (ctx, state, route, next) => {
          const reply = await next();
          if (route.path === '/webhooks' && ctx.method === 'PUT')
            regenerated.push(
              state.webhooks.registry.regenerateKey(ctx.client!.clientId),
              state.webhooks.registry.regenerateKey('nobody'),
            );
          return reply;
        },
      ],
    });
    await createWebhook(s, ['WEBHOOK']);
    const before = await publishedKey(s);
    await s.caller.call('PUT', '/webhooks', { token: s.token, body: { subscriptions: ['WEBHOOK'] } });
    expect(regenerated).toEqual([true, false]);
    expect((await publishedKey(s)).keyId).not.toBe(before.keyId);
  });
});
