// The keys the server published in observed traffic, with which the delivery checks (../delivery.ts) and the key check
// (../key.ts, which key signed) verify a proxy session's deliveries (suites/kit/delivery-verification.ts).
import type { KeyObject } from 'node:crypto';
import { type CheckContext } from '../../../src/engine/index.js';
import {
  observedLine,
  observedTraffic,
  verifyObserved,
  type HttpResponse,
  type ObservedDelivery,
  type ObservedVerdict,
} from '../../kit/index.js';
import { keyOfAnswer } from './endpoints.js';
import { clientOf, isConfiguration, observedWebhookReads } from './observed.js';

/**
 * The keys the server published in the traffic, newest first: every 2xx GET /webhooks/key that holds one, as the run's
 * receiver takes every key published in the run (a server may make a new one each time the webhook is configured). A
 * skip when the traffic holds no 2xx answer of GET /webhooks/key.
 */
export function observedKeys(ctx: CheckContext): KeyObject[] {
  return keyReads(ctx)
    .map((r) => r.key)
    .reverse();
}

/** Every 2xx GET /webhooks/key of the traffic that holds a key, in the traffic's order, with that key. */
function keyReads(ctx: CheckContext): Array<{ res: HttpResponse; key: KeyObject }> {
  return observedWebhookReads(ctx, '/webhooks/key').flatMap(({ res }) => {
    const got = keyOfAnswer(res);
    return 'key' in got ? [{ res, key: got.key.key }] : [];
  });
}

/**
 * For a delivery whose signature verifies under no key the traffic holds: the configuration (a 2xx POST or PUT
 * /webhooks) after which it may have been signed with a key the traffic never read; undefined when every key it may
 * have been signed with was read, so that its failure stands. The key is generated when the webhook is configured, and
 * a server may make a new one at each configuration and sign a delivery when it sends it: one arriving after the last
 * configuration of a client before it, with no GET /webhooks/key of that client answered between that configuration and
 * its next, may carry a key nobody read (a run's traffic ends with the configuration put back; a client configures and never
 * reads the key again). Where the traffic shows the key kept across a configuration and never changed by one, the
 * server does not make new ones, and nothing is left unread.
 */
function unreadKeyBefore(ctx: CheckContext): (d: ObservedDelivery) => HttpResponse | undefined {
  const at = (res: HttpResponse) => Date.parse(res.exchange.startedAt ?? '');
  const timed = (res: HttpResponse) => Number.isFinite(at(res));
  const changes = observedTraffic(ctx)
    .filter((res) => isConfiguration(ctx, res) && timed(res))
    .sort((a, b) => at(a) - at(b));
  const reads = keyReads(ctx)
    .filter((r) => timed(r.res))
    .sort((a, b) => at(a.res) - at(b.res));
  // Two reads of a client's key with a configuration of that client between them: the same key, or another.
  let kept = false;
  let renewed = false;
  for (const [i, read] of reads.entries()) {
    const next = reads.slice(i + 1).find((r) => clientOf(r.res) === clientOf(read.res));
    if (next === undefined) continue;
    const between = changes.some(
      (c) => clientOf(c) === clientOf(read.res) && at(c) > at(read.res) && at(c) < at(next.res),
    );
    if (!between) continue;
    if (next.key.equals(read.key)) kept = true;
    else renewed = true;
  }
  if (kept && !renewed) return () => undefined;
  const clients = [...new Set(changes.map(clientOf))];
  // A delivery names no client: the last configuration of each before it may have made the key that signed it.
  return (d) => {
    if (d.arrivedAt === undefined) return undefined;
    for (const client of clients) {
      const mine = changes.filter((c) => clientOf(c) === client);
      const last = mine.filter((c) => at(c) < d.arrivedAt!).pop();
      if (last === undefined) continue;
      const following = mine.find((c) => at(c) > at(last));
      const read = reads.some(
        (r) =>
          clientOf(r.res) === client && at(r.res) > at(last) && (following === undefined || at(r.res) < at(following)),
      );
      if (!read) return last;
    }
    return undefined;
  };
}

/**
 * Observed deliveries verified with the keys the traffic holds (`keys`, from observedKeys, which skips the check first
 * when the traffic holds no key read: unreadKeyBefore reads them the same way); one whose signature verifies under none
 * of them but may be signed by a key the traffic never read (unreadKeyBefore) has its signature left unjudged
 * (`keyUnread`), its digest judged still.
 */
export async function verifiedObserved(
  ctx: CheckContext,
  deliveries: readonly ObservedDelivery[],
  keys: readonly KeyObject[],
): Promise<ObservedVerdict[]> {
  const unread = unreadKeyBefore(ctx);
  return Promise.all(
    deliveries.map(async (d) => {
      const v = await verifyObserved(d, keys);
      // Only a signature that was read and checked, and verifies under no key the traffic holds, may be another
      // key's: one missing, or that cannot be read, is not saved by a key nobody read.
      const change = v.signedBy === 'other-key' ? unread(d) : undefined;
      if (change === undefined) return v;
      return { ...v, problems: v.problems.filter((p) => !p.startsWith('signature')), keyUnread: change };
    }),
  );
}

/** What a check says of deliveries whose signature it left unjudged for a key the traffic never read. */
export function unreadKeySaid(ctx: CheckContext, verdicts: readonly ObservedVerdict[], of: number): string | undefined {
  const unread = verdicts.filter((v) => v.keyUnread !== undefined);
  if (unread.length === 0) return undefined;
  return `the signature of ${unread.length} of ${of} deliveries verifies under no key the traffic holds, and they arrived after ${observedLine(ctx, unread[0]!.keyUnread!)} with no GET /webhooks/key answered after it: the server may sign with a key it made at that configuration, which the traffic never read, so their signatures are not judged (read the key after each configuration to judge them)`;
}
