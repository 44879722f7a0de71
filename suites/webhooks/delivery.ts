// Area `webhooks.delivery`: every delivery of the run, judged once per request: a JSON payload, a Content-Digest and a
// signature by the published key that verifies, covers the digest and is in its window; and what deliveries looked like.
import {
  cite,
  deliveryLine,
  describeDelivery,
  describeKeyForm,
  headerValue,
  observedDeliveries,
  type SignatureVerdict,
  type ObservedVerdict,
  type Delivery,
  type WebhookReceiver,
  topLevelFields,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  perRequest,
  PROBLEM_OWNERS,
  VERIFIED_OWNER,
  COVERED_OWNER,
  WINDOW_OWNER,
  batchesSeen,
  eventOf,
  eventPlaces,
  otherDomainEvent,
} from './helpers/deliveries.js';
import { stateOf, receiverOf } from './helpers/state.js';
import { fetchKey } from './helpers/endpoints.js';
import { observedKeys, unreadKeySaid, verifiedObserved } from './helpers/observed-deliveries.js';
import { reachable, silence } from './helpers/reach.js';

// ---- the delivery checks: which deliveries break which rule ------------------------------------------------------

/** The deliveries discarded for a rule `owner` judges, with the reasons of that rule alone. */
function withProblems(
  receiver: WebhookReceiver,
  owner: string,
  routed = false,
): Array<{ d: Delivery; reasons: string }> {
  return perRequest(receiver.arrivals).flatMap((d) => {
    // `routed`: a delivery whose URL cannot be read back (see unmapped) is not judged on its signature.
    const unjudged = routed && d.route?.kind === 'unmapped' ? ['signature'] : [];
    const mine = d.problems.filter((p) => PROBLEM_OWNERS[p.kind].ownedBy === owner && !unjudged.includes(p.kind));
    return mine.length > 0 ? [{ d, reasons: mine.map((p) => p.reason).join('; ') }] : [];
  });
}

/**
 * The deliveries of the run with a signature by the published key that verifies: what the coverage and window checks
 * judge. A skip when none arrived, or none is so signed (webhooks.delivery.verified judges that).
 */
async function signedDeliveries(ctx: CheckContext): Promise<Delivery[]> {
  const st = stateOf(ctx);
  await fetchKey(ctx);
  const receiver = receiverOf(ctx);
  await receiver.settled();
  if (receiver.arrivals.length === 0) {
    reachable(ctx, st);
    ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
  }
  const signed = perRequest(receiver.arrivals).filter(
    (d) => d.signedBy === 'published-key' && d.signature?.ok === true,
  );
  if (signed.length === 0)
    ctx.skip(
      `none of the ${receiver.arrivals.length} deliveries carries a signature by the published key that verifies: webhooks.delivery.verified judges that`,
    );
  return signed;
}

/** The windows the server's signatures chose (RFC 9421 leaves created and expires optional and sets no longest one). */
function windowsSeen(signed: readonly Delivery[]): string {
  const windows: number[] = [];
  let noExpires = 0;
  let noCreated = 0;
  for (const d of signed) {
    const { created, expires } = d.signature?.params ?? {};
    if (typeof expires !== 'number') noExpires++;
    if (typeof created !== 'number') noCreated++;
    if (typeof created === 'number' && typeof expires === 'number') windows.push(expires - created);
  }
  const parts: string[] = [];
  if (windows.length > 0)
    parts.push(
      `expires - created ${Math.min(...windows) === Math.max(...windows) ? `${windows[0]} s` : `${Math.min(...windows)} to ${Math.max(...windows)} s`} in ${windows.length}`,
    );
  if (noExpires > 0) parts.push(`no expires in ${noExpires}`);
  if (noCreated > 0) parts.push(`no created in ${noCreated}`);
  return `the windows the server chose (RFC 9421 leaves them to the signer): ${parts.join(', ')}`;
}

export const deliveryJson = defineCheck({
  id: 'webhooks.delivery.json',
  title: 'every delivery of the run carries a JSON payload',
  level: 'MUST',
  requirements: ['REQ-EVT-01'],
  explain: {
    failsInFull: true,
    sends: 'nothing of its own: it reads every delivery the receiver got during the run',
    passes: 'every delivery body is JSON, under any media type (application/json, application/cloudevents+json…)',
    fails: 'a delivery whose body is not JSON: the check fails; skipped when no delivery arrived',
  },
  async run(ctx) {
    const receiver = receiverOf(ctx);
    await receiver.settled();
    // The body is the request's: a batch is judged once.
    const all = perRequest(receiver.arrivals);
    if (all.length === 0) {
      reachable(ctx, stateOf(ctx));
      ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
    }
    const types = [...new Set(all.map((d) => headerValue(d.headers, 'content-type') ?? '(no Content-Type)'))];
    const other = all.filter((d) => !d.json);
    const { registration } = stateOf(ctx);
    if (other.length > 0) {
      ctx.fail(
        `${other.length} of ${all.length} deliveries are not JSON (Content-Type ${JSON.stringify(headerValue(other[0]!.headers, 'content-type') ?? null)})`,
        {
          expected: 'each delivery\'s body is "a JSON payload"',
          observed: describeDelivery(other[0]!),
          ...(registration ? { exchange: registration.res.exchange } : {}),
        },
      );
    }
    ctx.observe(`${all.length} deliveries, every body JSON; Content-Type ${types.join(', ')}`);
    ctx.judged('a delivery request', all.length);
  },
});

export const deliveryVerified = defineCheck({
  id: 'webhooks.delivery.verified',
  title:
    'every delivery of the run carries a Content-Digest matching its body and a signature by the published key that verifies',
  level: 'MUST',
  requirements: ['REQ-EVT-14'],
  explain: {
    failsInFull: true,
    sends:
      'nothing of its own: it reads every delivery the receiver got during the run (the key comes from GET /webhooks/key)',
    passes:
      "every delivery carries a Content-Digest (sha-512 or sha-256) matching its body, and an RFC 9421 Ed25519 signature (any label, parameters and component order) by the key of GET /webhooks/key that verifies over the components it lists; whether it covers the digest and holds its window are webhooks.delivery.digest-covered's and webhooks.delivery.in-window's",
    fails:
      "a delivery whose digest or signature does not verify (the report gives the reason), or one over the receiver's size cap: the check fails; skipped when no delivery arrived",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    const receiver = receiverOf(ctx);
    await receiver.settled();
    const c = receiver.counts;
    if (c.received === 0 && c.oversized === 0) {
      reachable(ctx, st);
      ctx.skip(`no delivery reached the receiver (${silence(receiver)}); the event checks report it`);
    }
    // A delivery a proxy rewrote beyond reading back: its signature cannot be judged (see unmapped), only its digest.
    const unmapped = perRequest(receiver.arrivals).filter((d) => d.route?.kind === 'unmapped');
    const rejected = withProblems(receiver, VERIFIED_OWNER, true);
    if (rejected.length === 0 && unmapped.length === c.received && unmapped.length > 0)
      ctx.setupProblem(receiver.diagnoseUnmapped(unmapped[0]!));
    if (unmapped.length > 0)
      ctx.observe(
        `${unmapped.length} of ${c.received} deliveries arrived where the run cannot read back which URL they were sent to, so their signatures are not judged: ${receiver.diagnoseUnmapped(unmapped[0]!).problem}`,
      );
    if (rejected.length > 0) {
      const reasons = [...new Set(rejected.map((r) => r.reasons))].slice(0, 3).join(' | ');
      ctx.fail(`${rejected.length} of ${c.received} deliveries do not verify and were discarded: ${reasons}`, {
        expected:
          'every delivery: a Content-Digest of the body; an Ed25519 signature by the key of GET /webhooks/key that verifies over the components it lists',
        observed: describeDelivery(rejected[0]!.d),
        ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
      });
    }
    if (c.oversized > 0)
      ctx.fail(`${c.oversized} deliveries had a body over the receiver's cap and could not be verified`, {
        expected: 'deliveries of a reasonable size',
        observed: silence(receiver),
      });
    const unread = unmapped.filter((d) => d.state === 'rejected').length;
    const others = Math.max(0, c.rejected - rejected.length - unread);
    ctx.observe(
      `${c.received - rejected.length - unread} of ${c.received} deliveries carry a matching digest and a signature by the published key${others > 0 ? ` (${others} of them discarded for another rule: webhooks.delivery.digest-covered and webhooks.delivery.in-window judge it)` : ''}${c.dropped ? `; ${c.dropped} more were answered but not kept (flood cap)` : ''}`,
    );
    ctx.judged('a delivery, its digest and signature', c.received);
  },
  // Observed traffic (`conformance proxy --receiver`, a run's --har): each delivery the traffic holds, verified with
  // the keys the server published in the traffic (every 2xx GET /webhooks/key, newest first, as the run's receiver
  // takes every key published in the run), over the URL it was sent to. A 2xx answer of the client's receiver to a
  // delivery that does not verify is the receiver's failure (client.webhooks.refuses-forged's rule), recorded here.
  async observe(ctx) {
    const { judged: kept, verdicts } = await observedVerdicts(ctx);
    const rejected = verdicts.filter((v) => v.problems.length > 0);
    // A masked signature is neither passed nor failed: such a delivery is judged only when its digest fails.
    const masked = verdicts.filter((v) => v.masked && v.problems.length === 0).length;
    // So is one that may be signed by a key the traffic never read.
    const unread = verdicts.filter((v) => v.keyUnread !== undefined && v.problems.length === 0).length;
    const judged = kept - masked - unread;
    const whys = [
      masked > 0
        ? `the Signature of ${masked} of ${kept} deliveries is masked in the traffic ([redacted]), so whether it verifies is not judged (their digests are)`
        : undefined,
      unreadKeySaid(ctx, verdicts, kept),
    ].filter((w) => w !== undefined);
    for (const why of whys) ctx.observe(why);
    if (judged === 0 && whys.length > 0) ctx.skip(whys.join('; '));
    const accepted = rejected.filter((v) => v.d.answered !== undefined && v.d.answered >= 200 && v.d.answered < 300);
    if (accepted.length > 0)
      ctx.observe(
        `the client's receiver answered 2xx to ${accepted.length === 1 ? 'a delivery that does' : `${accepted.length} deliveries that do`} not verify (${accepted.map((v) => `${deliveryLine(v.d)} → ${v.d.answered}`).join(', ')}): a receiver refuses them (client.webhooks.refuses-forged's rule, judged on the client's side: --side client or both)`,
      );
    if (rejected.length > 0) {
      for (const v of rejected) cite(ctx, v.d);
      const first = rejected[0]!;
      ctx.fail(
        `${rejected.length} of ${kept} deliveries do not verify: ${rejected
          .slice(0, 3)
          .map((v) => `${deliveryLine(v.d)}: ${v.problems.join('; ')}`)
          .join(' | ')}`,
        {
          expected:
            'every delivery: a Content-Digest of the body; an Ed25519 signature by the key of GET /webhooks/key that verifies over the components it lists',
          observed: `${deliveryLine(first.d)}: ${first.problems.join('; ')}`,
          exchange: first.d.exchange,
        },
      );
    }
    ctx.observe(`${judged} deliveries carry a matching digest and a signature by the published key`);
    ctx.judged('a delivery, its digest and signature', judged);
  },
});

/**
 * The deliveries the traffic holds (a proxy session's, `conformance proxy --receiver`; a run's --har) verified with the
 * keys the server published in the traffic: every 2xx GET /webhooks/key, newest first, as the run's receiver takes
 * every key published in the run. A skip when it holds none, or no key; `judged` counts those whose body was kept.
 */
async function observedVerdicts(ctx: CheckContext): Promise<{ judged: number; verdicts: ObservedVerdict[] }> {
  const deliveries = observedDeliveries(ctx);
  if (deliveries.length === 0)
    ctx.skip(
      'the traffic holds no webhook delivery (`conformance proxy --receiver` fronts the client’s receiver to see them; a run’s --har carries those its receiver got)',
    );
  const keys = observedKeys(ctx);
  if (keys.length === 0)
    ctx.skip(
      `${deliveries.length} deliveries seen, but no 2xx answer of GET /webhooks/key in the traffic holds a key to verify them with`,
    );
  const kept = deliveries.filter((d) => d.captured);
  if (kept.length < deliveries.length)
    ctx.observe(`${deliveries.length - kept.length} deliveries kept without their bodies are not verified`);
  const verdicts = await verifiedObserved(ctx, kept, keys);
  return { judged: kept.length, verdicts };
}

/**
 * The observed deliveries with a signature by a published key that verifies, or whose signature was masked (read from
 * its Signature-Input alone): what the coverage and window checks judge of observed traffic. A skip when there are none
 * (webhooks.delivery.verified judges that).
 */
async function signedObserved(ctx: CheckContext): Promise<Array<ObservedVerdict & { signature: SignatureVerdict }>> {
  const { judged, verdicts } = await observedVerdicts(ctx);
  const signed = verdicts.flatMap((v) => (v.signature !== undefined ? [{ ...v, signature: v.signature }] : []));
  const masked = signed.filter((v) => v.masked).length;
  if (masked > 0)
    ctx.observe(
      `${masked} of the ${signed.length} signed deliveries have a Signature masked in the traffic ([redacted]): each judged on what its Signature-Input says, not verified`,
    );
  if (signed.length === 0)
    ctx.skip(
      `none of the ${judged} deliveries carries a signature by the published key that verifies: webhooks.delivery.verified judges that`,
    );
  return signed;
}

/** The clock skew tolerated between a signature's times and a delivery's arrival, as the run's receiver's. */
const OBSERVED_SKEW_SECONDS = 60;

/** Why an observed delivery's verifying signature was outside its window when it arrived; undefined when inside. */
function outsideWindow(v: ObservedVerdict & { signature: SignatureVerdict }): string | undefined {
  if (v.d.arrivedAt === undefined) return undefined;
  const now = Math.floor(v.d.arrivedAt / 1000);
  const { created, expires } = v.signature.params ?? {};
  if (typeof created === 'number' && created > now + OBSERVED_SKEW_SECONDS)
    return `signature: created (${created}) is in the future (arrived ${now})`;
  if (typeof expires === 'number' && expires < now - OBSERVED_SKEW_SECONDS)
    return `signature: expired at ${expires} (arrived ${now})`;
  return undefined;
}

export const deliveryDigestCovered = defineCheck({
  id: 'webhooks.delivery.digest-covered',
  title: "every delivery's signature covers its Content-Digest, binding the body to the signature",
  level: 'SHOULD',
  requirements: ['REQ-EVT-19'],
  explain: {
    failsInFull: true,
    sends: 'nothing of its own: it reads every delivery of the run whose signature by the published key verifies',
    passes: 'each such signature lists content-digest among its components',
    fails:
      'a signature that leaves content-digest out, so the digest proves nothing about the body that was signed: the check warns; skipped when no delivery carries a signature by the published key (webhooks.delivery.verified judges that)',
  },
  async run(ctx) {
    const signed = await signedDeliveries(ctx);
    const uncovered = withProblems(receiverOf(ctx), COVERED_OWNER);
    if (uncovered.length > 0) {
      const st = stateOf(ctx);
      const { d } = uncovered[0]!;
      ctx.fail(
        `${uncovered.length} of ${signed.length} signed deliveries have a signature that does not cover content-digest (covering ${JSON.stringify(d.signature?.components ?? [])})`,
        {
          expected:
            "each delivery's signature covers content-digest, so that the digest binds the body to the signature (RFC 9530 §6.3, RFC 9421 §7.2.8)",
          observed: describeDelivery(d),
          ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
        },
      );
    }
    ctx.observe(`${signed.length} signed deliveries, each signature covering content-digest`);
    ctx.judged("a signed delivery's covered components", signed.length);
  },
  // Observed traffic (`conformance proxy --receiver`, a run's --har): each delivery whose signature verifies (or,
  // masked, reads).
  async observe(ctx) {
    const signed = await signedObserved(ctx);
    const uncovered = signed.filter((v) => !(v.signature.components ?? []).includes('content-digest'));
    if (uncovered.length > 0) {
      for (const v of uncovered) cite(ctx, v.d);
      const first = uncovered[0]!;
      ctx.fail(
        `${uncovered.length} of ${signed.length} signed deliveries have a signature that does not cover content-digest (${deliveryLine(first.d)} covering ${JSON.stringify(first.signature.components ?? [])})`,
        {
          expected:
            "each delivery's signature covers content-digest, so that the digest binds the body to the signature (RFC 9530 §6.3, RFC 9421 §7.2.8)",
          observed: `${deliveryLine(first.d)}: Signature-Input ${headerValue(first.d.headers, 'signature-input') ?? '(absent)'}`,
          exchange: first.d.exchange,
        },
      );
    }
    ctx.observe(`${signed.length} signed deliveries, each signature covering content-digest`);
    ctx.judged("a signed delivery's covered components", signed.length);
  },
});

export const deliveryInWindow = defineCheck({
  id: 'webhooks.delivery.in-window',
  title: "every delivery's signature is valid when it arrives: not expired, not created in the future",
  level: 'SHOULD',
  requirements: ['REQ-AUTH-09'],
  explain: {
    failsInFull: true,
    sends: 'nothing of its own: it reads every delivery of the run whose signature by the published key verifies',
    passes:
      "each such signature's expires (when it has one) is not past, and its created (when it has one) not in the future, when the delivery arrives, within 60 s of clock skew; the window itself is the server's choice (no expires, or a long one, is accepted) and is recorded",
    fails:
      'a signature that had expired before its delivery arrived, or was created in the future (a clock behind or ahead): a verifier discards it (RFC 9421 §3.2.1), and the check warns; skipped when no delivery carries a signature by the published key (webhooks.delivery.verified judges that)',
  },
  async run(ctx) {
    const signed = await signedDeliveries(ctx);
    const stale = withProblems(receiverOf(ctx), WINDOW_OWNER);
    if (stale.length > 0) {
      const st = stateOf(ctx);
      ctx.fail(
        `${stale.length} of ${signed.length} signed deliveries arrived outside their signature's window: ${[...new Set(stale.map((x) => x.reasons))].slice(0, 3).join(' | ')}`,
        {
          expected:
            "each delivery arrives while its signature is valid: expires not past, created not in the future (60 s of clock skew tolerated), as a verifier judges it (RFC 9421 §3.2.1); the window's length is the server's",
          observed: describeDelivery(stale[0]!.d),
          ...(st.registration ? { exchange: st.registration.res.exchange } : {}),
        },
      );
    }
    ctx.observe(`${signed.length} signed deliveries, each arriving within its window; ${windowsSeen(signed)}`);
    ctx.judged("a signed delivery's window", signed.length);
  },
  // Observed traffic (`conformance proxy --receiver`, a run's --har): each delivery whose signature verifies (or,
  // masked, reads), at the time it reached the proxy or the run's receiver.
  async observe(ctx) {
    const signed = await signedObserved(ctx);
    const stale = signed.flatMap((v) => {
      const why = outsideWindow(v);
      return why !== undefined ? [{ v, why }] : [];
    });
    if (stale.length > 0) {
      for (const { v } of stale) cite(ctx, v.d);
      const first = stale[0]!;
      ctx.fail(
        `${stale.length} of ${signed.length} signed deliveries arrived outside their signature's window: ${stale
          .slice(0, 3)
          .map(({ v, why }) => `${deliveryLine(v.d)}: ${why}`)
          .join(' | ')}`,
        {
          expected:
            "each delivery arrives while its signature is valid: expires not past, created not in the future (60 s of clock skew tolerated), as a verifier judges it (RFC 9421 §3.2.1); the window's length is the server's",
          observed: `${deliveryLine(first.v.d)}: ${first.why}`,
          exchange: first.v.d.exchange,
        },
      );
    }
    ctx.observe(`${signed.length} signed deliveries, each arriving within its window`);
    ctx.judged("a signed delivery's window", signed.length);
  },
});

export const deliveryObserved = defineCheck({
  id: 'webhooks.delivery.observed',
  title: 'what the deliveries looked like: latency, retries, payload fields, headers',
  level: 'INFO',
  requirements: ['REQ-EVT-15', 'REQ-EVT-17', 'REQ-EVT-18'],
  explain: {
    sends: 'nothing of its own: it reads the deliveries of the run',
    passes:
      "always, once the answer could be read: the check records delivery latency, retries (repeated bodies), the events and payload fields, requests that bundle several events (batches), the header names, the key's format and whether it changed, and events of other domains",
  },
  async run(ctx) {
    const st = stateOf(ctx);
    const receiver = receiverOf(ctx);
    const all = receiver.arrivals;
    if (all.length === 0) {
      reachable(ctx, st);
      ctx.skip(`no delivery reached the receiver (${silence(receiver)})`);
    }
    const lat = [...st.latencies].sort((a, b) => a - b);
    if (lat.length > 0)
      ctx.observe(
        `latency from the request to the delivery: p50 ${lat[Math.floor((lat.length - 1) / 2)]} ms, max ${lat[lat.length - 1]} ms (${lat.length} measured)`,
      );
    // Bodies are the requests': the events of one batch share theirs.
    const requests = perRequest(all);
    const bodies = new Map<string, number>();
    for (const d of requests) bodies.set(d.body.toString('base64'), (bodies.get(d.body.toString('base64')) ?? 0) + 1);
    const repeats = [...bodies.values()].reduce((n, k) => n + k - 1, 0);
    ctx.observe(
      `${requests.length} deliveries; ${repeats === 0 ? 'no repeated body (no retry seen)' : `${repeats} repeated a body already delivered (retries)`}`,
    );
    ctx.judged('a delivery', all.length);
    const batches = batchesSeen(all);
    if (batches !== undefined) ctx.observe(`several events in one request (REQ-EVT-15): ${batches}`);
    const events = new Map<string, number>();
    const label = (d: Delivery) => eventOf(d) ?? '(none of the named events)';
    for (const d of all) events.set(label(d), (events.get(label(d)) ?? 0) + 1);
    ctx.observe(`events: ${[...events].map(([e, n]) => `${e} ×${n}`).join(', ')}`);
    ctx.observe(
      `event name carried at ${eventPlaces(all) || '(not found)'} (REQ-EVT-15, REQ-EVT-18: not shown); payload fields ${JSON.stringify([...new Set(all.flatMap((d) => topLevelFields(d.payload)))])}`,
    );
    const ambiguous = all.filter((d) => d.event.ambiguity !== undefined);
    if (ambiguous.length > 0)
      ctx.observe(
        `${ambiguous.length} deliver${ambiguous.length === 1 ? 'y names' : 'ies name'} more than one event; first, #${ambiguous[0]!.seq}: ${ambiguous[0]!.event.ambiguity}`,
      );
    ctx.observe(
      `header names: ${[...new Set(requests.flatMap((d) => d.headers.map(([n]) => n.toLowerCase())))].sort().join(', ')}`,
    );
    // The format of the public key is not shown (REQ-WHKEP-08): the one the server took, on record.
    if (st.key) ctx.observe(`public key (its format is not shown): ${describeKeyForm(st.key)}`);
    if (st.keyChanges.length > 0)
      ctx.observe(
        `the published key changed ${st.keyChanges.length} time(s) during the run; first: ${st.keyChanges[0]}`,
      );
    else if (st.key !== undefined)
      ctx.observe(
        'the published key did not change across the configurations of the run: generated once (REQ-WHKEP-05 allows either)',
      );
    const others = [...new Set(all.map(otherDomainEvent).filter((e): e is string => e !== undefined))];
    if (others.length > 0)
      ctx.observe(`events of other domains delivered: ${others.join(', ')} (REQ-EVT-16: not shown)`);
    const c = receiver.counts;
    if (c.tlsFailures || c.stray || c.oversized || c.dropped)
      ctx.observe(
        `${c.tlsFailures} failed TLS handshakes, ${c.stray} stray requests, ${c.oversized} oversized bodies, ${c.dropped} deliveries over the flood cap`,
      );
  },
});
