// The mutable customer (fixtures.mutableCustomerId): one snapshot, one restore, one wording. Checks that change it, or
// send it a request that must change nothing, save it first and put it back afterwards, whatever happened; a restore
// that fails says, with CLEAN-UP FAILED, which request puts it back by hand.
//
// The rules: the snapshot keeps the writable fields the server showed, each as its JSON text (numbers as the server
// wrote them, so no id is rounded); the restore first reads the customer again and does nothing when it is as saved,
// else sends one PUT /customers with every saved value a client may send (exact texts), then reads it back to see the
// values took. A value a client may not send (outside the field's type or enum, or CLOSED, which may be final) is never
// sent: if it changed, the restore fails and says what to put back by hand.
//
// Before the work, the snapshot goes to the run's restore journal (entry kind "customer", subject "customer <id>"): a
// run killed during the work leaves it, and the next run (or `conformance restore`) puts the customer back from it
// (customerPutBack).
import type { HttpResponse } from '../../src/http/client.js';
import type { EntryInput, EntryPutBack } from '../../src/journal/journal.js';
import { exactNumber, parseJson } from '../../src/http/json.js';
import type { CheckContext } from '../../src/engine/index.js';
import { cleanUpFailed, withPutBack, type GuardOptions, type PutBack, type Sender } from './clean-up.js';
import { describeResponse } from './expect.js';
import { isSuccess } from './negative.js';

/** The fields PUT /customers lets a client write (besides customerId, which names the customer). */
const WRITABLE_CUSTOMER_FIELDS = ['firstName', 'lastName', 'status', 'referenceId'] as const;

export interface CustomerSnapshot {
  customerId: number;
  /** The writable fields the server showed (null and absent ones left out), each as its JSON text. */
  members: Array<[name: string, json: string]>;
  /** The customer as the server showed it (its `data`, or the body): every field, writable or not. */
  values: Record<string, unknown>;
}

/** The snapshot an answer of GET /customers/{id} gives: undefined when it is no success or holds no customer object. */
export function customerSnapshot(customerId: number, res: HttpResponse): CustomerSnapshot | undefined {
  if (!isSuccess(res)) return undefined;
  const parsed = parseJson(res.text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    return undefined;
  const body = parsed.value as Record<string, unknown>;
  const data = (
    typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data) ? body.data : body
  ) as Record<string, unknown>;
  const members: Array<[string, string]> = [];
  for (const field of WRITABLE_CUSTOMER_FIELDS) {
    const value = data[field];
    if (value === undefined || value === null) continue;
    members.push([field, exactNumber(data, field) ?? JSON.stringify(value)]);
  }
  return { customerId, members, values: data };
}

/** Reads a customer. No snapshot (with the answer) when the server did not show it. */
export async function readCustomer(
  ctx: Sender,
  customerId: number,
): Promise<{ snapshot?: CustomerSnapshot; res: HttpResponse }> {
  const res = await ctx.send({ method: 'GET', path: `/customers/${customerId}` });
  const snapshot = customerSnapshot(customerId, res);
  return snapshot ? { snapshot, res } : { res };
}

/** Reads the customer or skips: without its current values a check cannot send a request that changes nothing. */
export async function readCustomerOrSkip(ctx: CheckContext, customerId: number): Promise<CustomerSnapshot> {
  const { snapshot, res } = await readCustomer(ctx, customerId);
  if (!snapshot)
    ctx.skip(
      `could not read customer ${customerId} first (GET answered ${describeResponse(res)}), so no PUT that changes nothing can be built`,
    );
  return snapshot;
}

/**
 * Whether a client may send this value back: the type (and enum) the update request gives the field. A CLOSED status is
 * not sendable either: the spec leaves transitions open, and a server may read even "CLOSED again" as closing, which
 * may be final (GUIDE: never set CLOSED).
 */
function sendable(field: string, value: unknown): boolean {
  switch (field) {
    case 'firstName':
    case 'lastName':
      return typeof value === 'string';
    case 'status':
      return value === 'ACTIVE' || value === 'SUSPENDED';
    case 'referenceId':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return false;
  }
}

function bodyOf(members: ReadonlyArray<readonly [string, string]>): string {
  return `{${members.map(([n, v]) => `${JSON.stringify(n)}:${v}`).join(',')}}`;
}

/**
 * The PUT /customers body that writes back exactly the snapshot's values, with `changes` (JSON texts) applied. A value
 * a client may not send (outside the field's type or enum, or CLOSED) is left out: the request is then still one that
 * changes nothing.
 */
export function customerBody(snapshot: CustomerSnapshot, changes: Record<string, string> = {}): string {
  const kept = snapshot.members.filter(([n]) => sendable(n, snapshot.values[n]));
  const members: Array<[string, string]> = [
    ['customerId', String(snapshot.customerId)],
    ...kept.map(([n, v]): [string, string] => [n, changes[n] ?? v]),
  ];
  for (const [n, v] of Object.entries(changes)) if (!members.some(([m]) => m === n)) members.push([n, v]);
  return bodyOf(members);
}

/** The request that puts the snapshot back, for a person: every saved value, exact, even one this suite never sends. */
function restoreByHand(snapshot: CustomerSnapshot): string {
  return `PUT /customers ${bodyOf([['customerId', String(snapshot.customerId)], ...snapshot.members])}`;
}

/** The writable fields whose values differ between two snapshots (one that appeared or went counts), as "field a → b". */
export function customerDifferences(before: CustomerSnapshot, after: CustomerSnapshot): string[] {
  const a = new Map(before.members);
  const b = new Map(after.members);
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => a.get(k) !== b.get(k))
    .map((k) => `${k} ${a.get(k) ?? '(absent)'} → ${b.get(k) ?? '(absent)'}`);
}

/** The saved fields a restore would have to write back: those of the snapshot that `now` shows otherwise. */
function toRestore(before: CustomerSnapshot, now: CustomerSnapshot): string[] {
  const shown = new Map(now.members);
  return differing(before, now).map(([n, v]) => `${n} ${shown.get(n) ?? '(absent)'} (saved ${v})`);
}

/** The saved members `now` shows otherwise. */
function differing(before: CustomerSnapshot, now: CustomerSnapshot): Array<[string, string]> {
  const shown = new Map(now.members);
  return before.members.filter(([n, v]) => shown.get(n) !== v);
}

/**
 * Puts the customer back as `before` shows it: reads it (unless `now` is what the caller just read), and when a saved
 * value differs, sends one PUT /customers with the saved values and reads it back. Never throws: a request that fails
 * is a restore that failed.
 */
export async function restoreCustomer(ctx: Sender, before: CustomerSnapshot, now?: CustomerSnapshot): Promise<PutBack> {
  const id = before.customerId;
  const byHand = restoreByHand(before);
  const failed = (problem: string, res?: HttpResponse): PutBack => ({
    ok: false,
    line: cleanUpFailed(`customer ${id}`, problem, byHand),
    problem,
    byHand,
    expected: `customer ${id} is restored to its saved values after the check`,
    observed: res ? `${problem}: ${describeResponse(res)}` : problem,
    ...(res ? { exchange: res.exchange } : {}),
  });
  try {
    let current = now;
    if (current === undefined) {
      const read = await readCustomer(ctx, id);
      if (!read.snapshot)
        return failed(`GET /customers/${id} answered ${read.res.status}, so whether it changed is unknown`, read.res);
      current = read.snapshot;
    }
    const changed = toRestore(before, current);
    if (changed.length === 0)
      return {
        ok: true,
        restored: false,
        note: `customer ${id} is as it was saved: nothing to restore`,
        said: `customer ${id} (as it was)`,
      };
    const put = await ctx.send({
      method: 'PUT',
      path: '/customers',
      body: customerBody(before),
      contentType: 'application/json',
    });
    if (!isSuccess(put)) return failed(`PUT /customers answered ${put.status}`, put);
    const back = await readCustomer(ctx, id);
    if (!back.snapshot)
      return failed(`after the restoring PUT, GET /customers/${id} answered ${back.res.status}`, back.res);
    const still = toRestore(before, back.snapshot);
    if (still.length > 0)
      return failed(
        `after the restoring PUT (answered ${put.status}), GET /customers/${id} still shows ${still.join('; ')}`,
        back.res,
      );
    return {
      ok: true,
      restored: true,
      note: `customer ${id} was restored: PUT /customers answered ${put.status}, and GET /customers/${id} shows the saved values`,
      said: `customer ${id} (put back: ${differing(before, current)
        .map(([n, v]) => `${n} ${v}`)
        .join(', ')})`,
    };
  } catch (e) {
    return failed(`the restore could not be done: ${(e as Error)?.message ?? String(e)}`);
  }
}

/**
 * Runs `work` on the customer `before` was read from, and restores it afterwards whatever happened: after the work
 * passed, failed or threw, and as soon as the check's time is up (the engine's grace period), without waiting for the
 * work. A restore that fails fails the check with CLEAN-UP FAILED and the request to send by hand (`cleanup`).
 */
export function withRestoredCustomer<T>(
  ctx: CheckContext,
  before: CustomerSnapshot,
  work: () => Promise<T>,
  options: GuardOptions = {},
): Promise<T> {
  return withPutBack(ctx, work, (sender) => restoreCustomer(sender, before), {
    ...options,
    journal: customerEntry(before),
  });
}

/** The journal entry of a change to the customer: its snapshot, the writable fields only. */
function customerEntry(before: CustomerSnapshot): EntryInput {
  const writable = Object.fromEntries(before.members.map(([n]) => [n, before.values[n]]));
  return {
    subject: `customer ${before.customerId}`,
    kind: CUSTOMER_ENTRY,
    what: `customer ${before.customerId}`,
    byHand: restoreByHand(before),
    data: { customerId: before.customerId, members: before.members, values: writable },
  };
}

const CUSTOMER_ENTRY = 'customer';

/**
 * Puts back a customer an earlier run's journal entry saved (the run was killed before its restore): the same restore,
 * read first, nothing sent when the customer is as saved. Undefined for an entry of another kind.
 */
export async function customerPutBack(
  entry: { kind: string; data: unknown; byHand: string },
  sender: Sender,
): Promise<EntryPutBack | undefined> {
  if (entry.kind !== CUSTOMER_ENTRY) return undefined;
  const snapshot = snapshotOfEntry(entry.data);
  if (!snapshot) return { ok: false, problem: 'the journal entry holds no customer snapshot', byHand: entry.byHand };
  const put = await restoreCustomer(sender, snapshot);
  return put.ok
    ? { ok: true, said: put.said ?? `customer ${snapshot.customerId}` }
    : { ok: false, problem: put.problem, byHand: put.byHand };
}

function snapshotOfEntry(data: unknown): CustomerSnapshot | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Partial<CustomerSnapshot>;
  if (
    typeof d.customerId !== 'number' ||
    !Array.isArray(d.members) ||
    typeof d.values !== 'object' ||
    d.values === null
  )
    return undefined;
  const members = d.members.filter(
    (m): m is [string, string] =>
      Array.isArray(m) && m.length === 2 && typeof m[0] === 'string' && typeof m[1] === 'string',
  );
  if (members.length !== d.members.length) return undefined;
  return { customerId: d.customerId, members, values: d.values };
}
