// Reading a delivery's JSON payload, whose fields are "not shown", and where it names its event (a payload member or a
// header, whose names are "not shown" either): the event is found by value, not by field or header name.
import { parseJson } from '../http/json.js';

/** The event names of the spec's Events table that a delivery can carry (the domains AUTH and WEBHOOK are subscriptions only). */
export const KNOWN_EVENTS = ['AUTH.CREATED', 'AUTH.DELETED', 'WEBHOOK.CREATED', 'WEBHOOK.UPDATED'] as const;

/** One place a delivery names an event: a payload member or a header. */
interface EventCandidate {
  /** As the spec spells it (AUTH.CREATED), or as the matcher names it. */
  name: string;
  /** Where: "payload.event", "payload.meta.eventType", "header x-event-type". */
  at: string;
  /** The value as sent (e.g. "com.example.auth.created"). */
  raw: string;
  /** 1 for a top-level payload member or a header value, 2 for a member of a top-level object, … */
  depth: number;
  /** Whether the member or header is named like an event: event, type, topic or kind in its name. */
  named: boolean;
}

/** Where a delivery names its event ("Payload fields of event messages" and "Names of the headers …": not shown). */
export interface EventReading {
  /** The event taken; undefined when none is named, or when two could not be told apart (see ambiguity). */
  name?: string;
  at?: string;
  raw?: string;
  /** Every place an event name was found, in the order they are weighed: shallowest first, then named like an event. */
  candidates: EventCandidate[];
  /** When the delivery names two different events: which was taken and why, or why none was. */
  ambiguity?: string;
}

const MAX_NODES = 5_000;
/** A member or header whose name says it carries the event: event, eventType, type, topic (X-Shopify-Topic), kind, ce-type. */
const EVENT_LIKE = /event|type|topic|kind/i;
/** A dotted name of plain segments: AUTH.CREATED, auth.created, com.example.auth.created, com.example.auth.created.v1. */
const DOTTED = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;
const VERSION = /^v\d+$/i;

/**
 * What a value names, when it names an event `accept` knows (given the name upper-cased): the value itself, in any
 * case (Stripe and most webhook APIs spell events in lower case: "customer.created"), or its last segments after a
 * reverse-DNS prefix, a trailing version segment aside (CloudEvents `type`, e.g. "com.github.pull_request.opened",
 * "com.example.object.deleted.v2": the CloudEvents spec's own examples). Suffixes of two segments at least: an event
 * name is DOMAIN.ACTION, and a prefix ending in a domain ("com.example.auth") names no event.
 */
export function eventMatcher(accept: (upper: string) => string | undefined): (value: string) => string | undefined {
  return (value) => {
    const v = value.trim();
    if (v === '' || v.length > 200) return undefined;
    const whole = accept(v.toUpperCase());
    if (whole !== undefined || !DOTTED.test(v)) return whole;
    const segments = v.split('.');
    if (segments.length > 2 && VERSION.test(segments[segments.length - 1]!)) segments.pop();
    for (let n = 2; n <= segments.length; n++) {
      const named = accept(segments.slice(-n).join('.').toUpperCase());
      if (named !== undefined) return named;
    }
    return undefined;
  };
}

/** The matcher of the events of the Events table. */
function knownEventMatcher(names: readonly string[] = KNOWN_EVENTS): (value: string) => string | undefined {
  const wanted = new Map(names.map((n) => [n.toUpperCase(), n]));
  return eventMatcher((upper) => wanted.get(upper));
}

const KNOWN = knownEventMatcher();

/**
 * Where a delivery names its event, found by value among its payload members (at any depth) and its header values:
 * a value `match` knows (by default one of the Events table's names, in any case, or as the end of a CloudEvents
 * type). Array elements are not read, since a Webhook in the payload lists subscriptions that are event names too.
 * The shallowest place is taken (a top-level member or a header value before a nested member); where two different
 * events are named at that depth, the one in a member or header named like an event (event, type, topic, kind); where
 * that does not settle it, none is taken, and `ambiguity` says why.
 */
export function findEvent(
  payload: unknown,
  headers: ReadonlyArray<readonly [string, string]> = [],
  match: (value: string) => string | undefined = KNOWN,
  /** How the payload is named in `at`: "payload", or for an event of a batch "payload.events[1]". */
  root = 'payload',
): EventReading {
  const found: Array<EventCandidate & { order: number }> = [];
  const add = (value: string, at: string, key: string, depth: number) => {
    const name = match(value);
    if (name !== undefined)
      found.push({ name, at, raw: value, depth, named: EVENT_LIKE.test(key), order: found.length });
  };
  // Payload members, level by level.
  let level: Array<[unknown, string]> = [[payload, root]];
  let nodes = 0;
  for (let depth = 1; level.length > 0 && nodes < MAX_NODES; depth++) {
    const next: Array<[unknown, string]> = [];
    for (const [value, path] of level) {
      if (++nodes > MAX_NODES) break;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      for (const [k, child] of Object.entries(value as Record<string, unknown>)) {
        if (typeof child === 'string') add(child, `${path}.${k}`, k, depth);
        else if (typeof child === 'object' && child !== null && !Array.isArray(child))
          next.push([child, `${path}.${k}`]);
      }
    }
    level = next;
  }
  // Header values, as deep as a top-level member: a server may name the event there alone (X-GitHub-Event,
  // X-Shopify-Topic, the CloudEvents binary mode's ce-type).
  for (const [name, value] of headers.slice(0, 200)) add(value, `header ${name.toLowerCase()}`, name, 1);
  // Shallowest first; at one depth, a place named like an event first; then payload before headers, in order.
  found.sort((a, b) => a.depth - b.depth || Number(b.named) - Number(a.named) || a.order - b.order);
  const candidates = found.map(({ order: _order, ...c }) => c);
  const [first] = candidates;
  if (first === undefined) return { candidates };
  const names = [...new Set(candidates.map((c) => c.name))];
  if (names.length === 1) return { name: first.name, at: first.at, raw: first.raw, candidates };
  const listed = (cs: readonly EventCandidate[]) =>
    cs
      .filter((c, i) => cs.findIndex((x) => x.name === c.name && x.at === c.at) === i)
      .map((c) => `${c.name} at ${c.at}`)
      .join(', ');
  const shallowest = candidates.filter((c) => c.depth === first.depth);
  const atDepth = new Set(shallowest.map((c) => c.name));
  const taken = (c: EventCandidate, why: string): EventReading => ({
    name: c.name,
    at: c.at,
    raw: c.raw,
    candidates,
    ambiguity: `the delivery names ${names.length} events (${listed(candidates)}): ${c.name} at ${c.at} taken, ${why}`,
  });
  if (atDepth.size === 1) return taken(first, 'the shallowest');
  const named = new Set(shallowest.filter((c) => c.named).map((c) => c.name));
  if (named.size === 1)
    return taken(first, 'the one in a member or header named like an event (event, type, topic, kind)');
  return {
    candidates,
    ambiguity: `the delivery names ${names.length} events at the same depth (${listed(shallowest)}), none in a member or header named like an event more than the others: no event taken`,
  };
}

/** Events read from one batch at most; a longer list is read this far, and the reading says so. */
export const MAX_BATCH_EVENTS = 100;

/** One event a delivery carries: the whole payload, or one item of a batch. */
interface CarriedEvent {
  /** What the event carries: the payload, or the batch's item. */
  payload: unknown;
  /** Where it names its event: among the item's own members for an item of a batch (headers describe the request). */
  event: EventReading;
  /** For an item of a batch: its place, e.g. index 1 of 2 at "payload.events". */
  batch?: { index: number; size: number; at: string };
}

/** The events a delivery carries, and, when it is a batch, where the list is and what was left out or unsure. */
export interface DeliveryEvents {
  events: CarriedEvent[];
  /** Where the list of a batch is: "payload" (the body is the list) or "payload.events". */
  batchAt?: string;
  /** What the reading could not settle: two lists that could each be the batch, or a list longer than is read. */
  note?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether an object names an event at its own top level: a member whose value `match` knows, or a member named like an
 * event (event, type, topic, kind) holding a dotted name (auth.created, WEBHOOK.TEST, com.example.account.updated):
 * what an item of a batch does, whatever event it is (the test message, an event of another domain).
 */
function namesAnEvent(item: Record<string, unknown>, match: (value: string) => string | undefined): boolean {
  return Object.entries(item).some(
    ([k, v]) => typeof v === 'string' && (match(v) !== undefined || (EVENT_LIKE.test(k) && DOTTED.test(v.trim()))),
  );
}

/**
 * The events a delivery carries. Most deliveries carry one, read by findEvent over the payload and the headers. A
 * server may bundle several into one request (Upvest: "multiple events bundled into a single request … ordered by the
 * created_at field"; the CloudEvents HTTP binding's batched mode, a JSON array of events): a batch is a list of
 * objects each naming an event at its own top level (see namesAnEvent), either the body itself or a top-level member
 * of a body that names no event of the Events table at its own top level (a single event whose payload holds such a
 * list stays one event). A Webhook's subscriptions are a list of strings, never taken for one. Each item is then read
 * as an event of its own, by its own members (the request's headers describe the request, not one of its events), in
 * the order of the list. Two top-level lists that could each be the batch: none is taken, the delivery is read as one
 * event, and `note` says why.
 */
export function readEvents(
  payload: unknown,
  headers: ReadonlyArray<readonly [string, string]> = [],
  match: (value: string) => string | undefined = KNOWN,
): DeliveryEvents {
  const single = (note?: string): DeliveryEvents => ({
    events: [{ payload, event: findEvent(payload, headers, match) }],
    ...(note !== undefined ? { note } : {}),
  });
  const lists: Array<[string, unknown[]]> = [];
  if (Array.isArray(payload)) lists.push(['payload', payload]);
  else if (isObject(payload)) {
    const own = Object.values(payload).some((v) => typeof v === 'string' && match(v) !== undefined);
    if (own) return single();
    for (const [k, v] of Object.entries(payload)) if (Array.isArray(v)) lists.push([`payload.${k}`, v]);
  }
  const batches = lists.filter(
    ([, items]) => items.length > 0 && items.every((item) => isObject(item) && namesAnEvent(item, match)),
  );
  if (batches.length === 0) return single();
  if (batches.length > 1)
    return single(
      `lists of events at ${batches.map(([at]) => at).join(' and ')}: none taken for the batch, the delivery read as one event`,
    );
  const [at, items] = batches[0]!;
  const read = items.slice(0, MAX_BATCH_EVENTS) as Array<Record<string, unknown>>;
  return {
    events: read.map((item, index) => ({
      payload: item,
      event: findEvent(item, [], match, `${at}[${index}]`),
      batch: { index, size: items.length, at },
    })),
    batchAt: at,
    ...(items.length > read.length
      ? { note: `a batch of ${items.length} events at ${at}: the first ${read.length} read` }
      : {}),
  };
}

/** Whether `needle` occurs as a value (string, or number given as string) anywhere in the payload, arrays included. */
export function containsValue(payload: unknown, needle: string | number): boolean {
  const want = String(needle);
  const stack: unknown[] = [payload];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const v = stack.pop();
    if (typeof v === 'string' || typeof v === 'number') {
      if (String(v) === want) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
  return false;
}

/** Every string or number under a member of this name, at any depth (bounded like containsValue). */
export function valuesNamed(payload: unknown, name: string): string[] {
  const found: string[] = [];
  const stack: unknown[] = [payload];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, value] of Object.entries(v)) {
        if (key === name && (typeof value === 'string' || typeof value === 'number')) found.push(String(value));
        else stack.push(value);
      }
    }
  }
  return found;
}

/** Top-level member names of a payload object, for the report's record of the payload shape. */
export function topLevelFields(payload: unknown): string[] {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? Object.keys(payload) : [];
}

const FORM = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/**
 * A delivery body as the checks read it: JSON (through the depth guard: a payload nested 200,000 deep would overflow
 * whatever walks it later), or else form fields, when the Content-Type says so or the body has their shape, with JSON
 * text in a field read as JSON. `json` alone says whether the body was what the spec asks for.
 */
export function readPayload(body: Buffer, contentType: string | undefined): { json: boolean; payload: unknown } {
  const text = body.toString('utf8');
  const parsed = parseJson(text);
  if (parsed.ok) return { json: true, payload: parsed.value };
  const form = /^application\/x-www-form-urlencoded\b/i.test(contentType?.trim() ?? '') || FORM.test(text.trim());
  if (!form || text.trim() === '') return { json: false, payload: undefined };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text.trim())) {
    const inner = /^\s*[[{]/.test(value) ? parseJson(value) : undefined;
    fields[name] = inner?.ok ? inner.value : value;
  }
  return { json: false, payload: fields };
}
