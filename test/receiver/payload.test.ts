// What the webhook checks read in a delivery (src/receiver/payload.ts): any payload shape a server may choose, and the
// event's name wherever the delivery carries it, payload member or header ("not shown", REQ-EVT-15 and REQ-EVT-18).
import { describe, expect, it } from 'vitest';
import {
  containsValue,
  eventMatcher,
  findEvent,
  MAX_BATCH_EVENTS,
  readEvents,
  valuesNamed,
} from '../../src/receiver/payload.js';

describe('webhook payload helpers', () => {
  it('finds the token ids a payload names, at any depth and in arrays, and none in one that names none', () => {
    const payload = {
      event: 'AUTH.CREATED',
      data: { token: { tokenId: 'a1' }, related: [{ tokenId: 7 }, { tokenId: { nested: true } }] },
    };
    expect(valuesNamed(payload, 'tokenId').sort()).toEqual(['7', 'a1']);
    expect(valuesNamed({ event: 'WEBHOOK.UPDATED', data: { url: 'https://x' } }, 'tokenId')).toEqual([]);
    expect(valuesNamed('not an object', 'tokenId')).toEqual([]);
  });

  it('stops walking a payload too large to search whole, instead of hanging', () => {
    // Members are searched from the end: the first of 20,000 items is past the node budget.
    const wide = { data: [{ tokenId: 'first' }, ...Array.from({ length: 20_000 }, (_, i) => ({ id: i }))] };
    expect(valuesNamed(wide, 'tokenId')).toEqual([]);
    expect(containsValue(wide, 'first')).toBe(false);
    expect(valuesNamed({ data: [{ tokenId: 'first' }, { id: 1 }] }, 'tokenId')).toEqual(['first']);
  });
});

describe('where a delivery names its event (findEvent)', () => {
  it('finds it in a top-level member, whatever the member is called', () => {
    expect(findEvent({ eventId: 'e1', event: 'AUTH.DELETED' })).toMatchObject({
      name: 'AUTH.DELETED',
      at: 'payload.event',
      raw: 'AUTH.DELETED',
    });
    expect(findEvent({ id: 'e1', kind: 'WEBHOOK.UPDATED' })).toMatchObject({
      name: 'WEBHOOK.UPDATED',
      at: 'payload.kind',
    });
    expect(findEvent({ what: 'WEBHOOK.CREATED' })).toMatchObject({ name: 'WEBHOOK.CREATED', at: 'payload.what' });
  });

  it('finds it nested, at any depth, but not among array items (a Webhook lists its subscriptions)', () => {
    expect(findEvent({ meta: { id: 1, eventType: 'WEBHOOK.CREATED' }, payload: {} })).toMatchObject({
      name: 'WEBHOOK.CREATED',
      at: 'payload.meta.eventType',
    });
    expect(findEvent({ a: { b: { c: { d: 'AUTH.CREATED' } } } })).toMatchObject({ at: 'payload.a.b.c.d' });
    const reading = findEvent({ id: 'e1', data: { subscriptions: ['AUTH.CREATED', 'WEBHOOK.UPDATED'] } });
    expect(reading).toEqual({ candidates: [] });
  });

  it('finds it in a header when the payload names none (X-Event-Type, X-GitHub-Event, X-Shopify-Topic)', () => {
    const headers: Array<[string, string]> = [
      ['Content-Type', 'application/json'],
      ['X-Event-Type', 'AUTH.CREATED'],
    ];
    expect(findEvent({ id: 'e1', data: { tokenId: 't1' } }, headers)).toEqual({
      name: 'AUTH.CREATED',
      at: 'header x-event-type',
      raw: 'AUTH.CREATED',
      candidates: [{ name: 'AUTH.CREATED', at: 'header x-event-type', raw: 'AUTH.CREATED', depth: 1, named: true }],
    });
    expect(findEvent({}, [['X-Shopify-Topic', 'auth.deleted']])).toMatchObject({
      name: 'AUTH.DELETED',
      at: 'header x-shopify-topic',
      raw: 'auth.deleted',
    });
    // A body that is no object at all (or none) still has its headers read.
    expect(findEvent(undefined, [['x-github-event', 'WEBHOOK.UPDATED']])).toMatchObject({ name: 'WEBHOOK.UPDATED' });
  });

  it('reads a CloudEvents type: a reverse-DNS prefix, lower case, a trailing version (binary mode and structured)', () => {
    const binary: Array<[string, string]> = [
      ['ce-specversion', '1.0'],
      ['ce-id', 'e1'],
      ['ce-source', '/webhooks/w1'],
      ['ce-type', 'com.example.investment.auth.created'],
    ];
    expect(findEvent({ tokenId: 't1' }, binary)).toMatchObject({
      name: 'AUTH.CREATED',
      at: 'header ce-type',
      raw: 'com.example.investment.auth.created',
    });
    const structured = {
      specversion: '1.0',
      id: 'e2',
      source: 'com.example.auth',
      type: 'com.example.webhook.updated.v2',
    };
    expect(findEvent(structured)).toMatchObject({ name: 'WEBHOOK.UPDATED', at: 'payload.type' });
    // A prefix ending in a domain names no event; nor does a value that only contains a name (a URL, a sentence).
    expect(findEvent({ source: 'com.example.auth', url: 'https://x.example/auth.created' })).toEqual({
      candidates: [],
    });
    expect(findEvent({ text: 'AUTH.CREATED happened' })).toEqual({ candidates: [] });
  });

  it('takes the shallowest: a top-level member or a header before a nested member, and says so', () => {
    const r = findEvent({ event: 'AUTH.DELETED', data: { previous: { event: 'AUTH.CREATED' } } });
    expect(r).toMatchObject({ name: 'AUTH.DELETED', at: 'payload.event' });
    expect(r.ambiguity).toBe(
      'the delivery names 2 events (AUTH.DELETED at payload.event, AUTH.CREATED at payload.data.previous.event): AUTH.DELETED at payload.event taken, the shallowest',
    );
    const h = findEvent({ data: { last: 'WEBHOOK.CREATED' } }, [['x-event-type', 'WEBHOOK.UPDATED']]);
    expect(h).toMatchObject({ name: 'WEBHOOK.UPDATED', at: 'header x-event-type' });
    expect(h.ambiguity).toMatch(/WEBHOOK.UPDATED at header x-event-type taken, the shallowest$/);
  });

  it('at one depth, takes the one in a member or header named like an event (event, type, topic, kind)', () => {
    const r = findEvent({ previous: 'AUTH.CREATED', type: 'AUTH.DELETED' });
    expect(r).toMatchObject({ name: 'AUTH.DELETED', at: 'payload.type' });
    expect(r.ambiguity).toBe(
      'the delivery names 2 events (AUTH.DELETED at payload.type, AUTH.CREATED at payload.previous): AUTH.DELETED at payload.type taken, the one in a member or header named like an event (event, type, topic, kind)',
    );
    // The same event in the payload and a header is no ambiguity: the payload member is where it is recorded, the header too.
    const same = findEvent({ event: 'AUTH.CREATED' }, [['x-event-type', 'AUTH.CREATED']]);
    expect(same).toMatchObject({ name: 'AUTH.CREATED', at: 'payload.event' });
    expect(same.ambiguity).toBeUndefined();
    expect(same.candidates.map((c) => c.at)).toEqual(['payload.event', 'header x-event-type']);
  });

  it('takes none when two events at one depth are alike, and says why', () => {
    const r = findEvent({ event: 'AUTH.CREATED' }, [['x-event-type', 'AUTH.DELETED']]);
    expect(r.name).toBeUndefined();
    expect(r.ambiguity).toBe(
      'the delivery names 2 events at the same depth (AUTH.CREATED at payload.event, AUTH.DELETED at header x-event-type), none in a member or header named like an event more than the others: no event taken',
    );
    expect(findEvent({ a: 'AUTH.CREATED', b: 'AUTH.DELETED' }).name).toBeUndefined();
  });

  it('takes other names through a matcher of its own (events of another domain, the test event)', () => {
    const account = eventMatcher((u) => (/^ACCOUNT\.[A-Z_]+$/.test(u) ? u : undefined));
    expect(findEvent({ event: 'ACCOUNT.UPDATED' }, [], account).name).toBe('ACCOUNT.UPDATED');
    expect(findEvent({}, [['ce-type', 'com.example.account.updated']], account).name).toBe('ACCOUNT.UPDATED');
    expect(findEvent({ event: 'AUTH.CREATED' }, [], account)).toEqual({ candidates: [] });
  });

  it('stays bounded on a payload too large or deep to walk whole', () => {
    let deep: Record<string, unknown> = { event: 'AUTH.CREATED' };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(findEvent(deep)).toEqual({ candidates: [] });
    const wide = Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`k${i}`, { v: i }]));
    expect(findEvent({ ...wide, event: 'AUTH.CREATED' }).name).toBe('AUTH.CREATED');
  });
});

// A server may bundle several events into one request (REQ-EVT-15: Upvest's batches, the CloudEvents batched mode):
// each event of the list is read as a delivery of its own.
describe('several events in one delivery (readEvents)', () => {
  const item = (event: string, tokenId: string) => ({ eventId: `e-${tokenId}`, event, data: { tokenId } });

  it('reads a list of events under a top-level member, each by its own members, in the order of the list', () => {
    const read = readEvents({ events: [item('AUTH.CREATED', 't1'), item('AUTH.DELETED', 't1')] });
    expect(read.batchAt).toBe('payload.events');
    expect(read.note).toBeUndefined();
    expect(read.events.map((e) => [e.event.name, e.event.at, e.batch])).toEqual([
      ['AUTH.CREATED', 'payload.events[0].event', { index: 0, size: 2, at: 'payload.events' }],
      ['AUTH.DELETED', 'payload.events[1].event', { index: 1, size: 2, at: 'payload.events' }],
    ]);
    expect(read.events[1]!.payload).toEqual(item('AUTH.DELETED', 't1'));
  });

  it('reads a CloudEvents batch: the body itself is the list (application/cloudevents-batch+json)', () => {
    const ce = (type: string) => ({ specversion: '1.0', id: type, source: '/w', type, data: {} });
    const read = readEvents([ce('com.example.webhook.updated'), ce('com.example.auth.created')]);
    expect(read.batchAt).toBe('payload');
    expect(read.events.map((e) => [e.event.name, e.event.at])).toEqual([
      ['WEBHOOK.UPDATED', 'payload[0].type'],
      ['AUTH.CREATED', 'payload[1].type'],
    ]);
  });

  it('takes items that name an event of no table (the test message, another domain) as events of the batch', () => {
    const read = readEvents({
      events: [{ event: 'WEBHOOK.TEST' }, { type: 'account.updated' }, item('AUTH.CREATED', 't')],
    });
    expect(read.events.map((e) => e.event.name)).toEqual([undefined, undefined, 'AUTH.CREATED']);
    expect(read.events.map((e) => e.payload)).toEqual([
      { event: 'WEBHOOK.TEST' },
      { type: 'account.updated' },
      item('AUTH.CREATED', 't'),
    ]);
  });

  it('reads the events of a batch by their own members, not by the headers of the request', () => {
    const read = readEvents({ events: [item('AUTH.DELETED', 't')] }, [['x-event-type', 'AUTH.CREATED']]);
    expect(read.events.map((e) => e.event.name)).toEqual(['AUTH.DELETED']);
  });

  it('reads one event where the body names one at its own top level, or no list is all events', () => {
    // A single event whose payload holds a list of events (a history) stays one event.
    const one = readEvents({ event: 'WEBHOOK.UPDATED', history: [item('AUTH.CREATED', 't')] });
    expect(one.batchAt).toBeUndefined();
    expect(one.events).toHaveLength(1);
    expect(one.events[0]!.event).toMatchObject({ name: 'WEBHOOK.UPDATED', at: 'payload.event' });
    // A Webhook's subscriptions are strings, a list of attachments names no event: no batch.
    expect(readEvents({ data: { subscriptions: ['AUTH.CREATED'] } }).batchAt).toBeUndefined();
    const mixed = readEvents({ items: [item('AUTH.CREATED', 't'), { contentType: 'image/png' }] });
    expect(mixed.batchAt).toBeUndefined();
    expect(readEvents({ events: [] }).batchAt).toBeUndefined();
    // The event named in a header alone, the body a record: one event, read there.
    expect(readEvents({ tokenId: 't' }, [['x-event-type', 'AUTH.CREATED']]).events[0]!.event.name).toBe('AUTH.CREATED');
  });

  it('takes no list when two could each be the batch, and says why', () => {
    const read = readEvents({ created: [item('AUTH.CREATED', 'a')], deleted: [item('AUTH.DELETED', 'b')] });
    expect(read.batchAt).toBeUndefined();
    expect(read.events).toHaveLength(1);
    expect(read.note).toBe(
      'lists of events at payload.created and payload.deleted: none taken for the batch, the delivery read as one event',
    );
  });

  it('reads at most MAX_BATCH_EVENTS events of a batch, and says so', () => {
    const many = Array.from({ length: MAX_BATCH_EVENTS + 5 }, (_, i) => item('AUTH.CREATED', `t${i}`));
    const read = readEvents({ events: many });
    expect(read.events).toHaveLength(MAX_BATCH_EVENTS);
    expect(read.note).toBe(
      `a batch of ${MAX_BATCH_EVENTS + 5} events at payload.events: the first ${MAX_BATCH_EVENTS} read`,
    );
  });
});
