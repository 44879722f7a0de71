// Client checks of area webhooks (suites/client/): the client registers its https receiver and fetches the delivery
// key; the sandbox then sends it valid deliveries and forged ones (src/client/forgeries.ts). These checks compare what
// was sent with the eventIds the receiver wrote to CONFORMANCE_ACCEPTED_FILE and with its HTTP answers.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { cite, observedTraffic, scenarioOf, stopWhenBlocked } from './kit.js';
import { deliveryLine, findWebhookKey, observedDeliveries, verifyObserved } from '../kit/index.js';

// The record's types through the kit's accessor: a suite reaches src/ only through the engine's face.
type ScenarioRecord = ReturnType<typeof scenarioOf>;
type ClientRequest = ScenarioRecord['requests'][number];
type SentDelivery = ScenarioRecord['deliveries'][number];
type ForgeryKind = Exclude<SentDelivery['kind'], 'valid'>;

/** Forged so that the digest or the signature fails: "the webhook message must be discarded" (Authentication 8). */
const FORGED: readonly ForgeryKind[] = [
  'body-altered',
  'digest-wrong',
  'signature-wrong',
  'other-key',
  'headers-missing',
];
/** Signed right, but outside the signature's window, or a second time: refused by RFC 9421 practice (REQ-AUTH-09). */
const STALE: readonly ForgeryKind[] = ['expired', 'created-in-future', 'replayed'];

const is2xx = (status: number | undefined) => status !== undefined && status >= 200 && status <= 299;
const answerOf = (d: SentDelivery) => (d.status !== undefined ? `answered ${d.status}` : `no answer (${d.error})`);
const line = (r: ClientRequest) => `${r.method} ${r.path} → ${r.status}${r.rejection ? ` (${r.rejection.code})` : ''}`;

/**
 * The deliveries of the scenario; a skip when none was sent. The sandbox sends them only once the client has
 * registered a receiver and fetched the key, which client.webhooks.registered judges.
 */
function deliveriesOf(ctx: CheckContext, record: ScenarioRecord): SentDelivery[] {
  if (record.deliveries.length > 0) return record.deliveries;
  ctx.skip(
    'the sandbox sent no delivery: it sends them once the client has registered its receiver and fetched GET /webhooks/key (client.webhooks.registered judges that)',
  );
}

/** The deliveries of these kinds whose eventId the receiver wrote to CONFORMANCE_ACCEPTED_FILE. */
function acceptedOf(ctx: CheckContext, record: ScenarioRecord, kinds: readonly ForgeryKind[]): SentDelivery[] {
  const deliveries = deliveriesOf(ctx, record);
  const times = (eventId: string) => record.accepted.filter((id) => id === eventId).length;
  return deliveries.filter((d) => {
    if (!(kinds as readonly string[]).includes(d.kind)) return false;
    // The replay carries its original's eventId: accepted twice means the replay was accepted too.
    return d.kind === 'replayed' ? times(d.eventId) > 1 : times(d.eventId) > 0;
  });
}

/** Records the deliveries of these kinds as judged (none accepted); a skip when the sandbox sent none of them. */
function judgedKinds(ctx: CheckContext, record: ScenarioRecord, kinds: readonly ForgeryKind[]): void {
  const sent = record.deliveries.filter((d) => (kinds as readonly string[]).includes(d.kind));
  if (sent.length === 0) ctx.skip(`the sandbox sent none of the deliveries ${kinds.join(', ')}`);
  for (const d of sent) ctx.judged(`the ${d.kind} delivery`);
}

/** Fails naming each delivery, every one's exchange cited (the first is the finding's own). */
function failNaming(ctx: CheckContext, what: string, deliveries: SentDelivery[], expected: string): never {
  for (const d of deliveries) cite(ctx, d);
  ctx.fail(`${what}: ${deliveries.map((d) => d.kind).join(', ')}`, {
    expected,
    observed: deliveries.map((d) => `${d.kind}: eventId ${d.eventId}, ${answerOf(d)}`).join('; '),
    exchange: deliveries[0]!.exchange,
  });
}

const registered = defineCheck({
  id: 'client.webhooks.registered',
  title: 'The client registers an https receiver with POST or PUT /webhooks, then fetches GET /webhooks/key',
  level: 'MUST',
  requirements: ['REQ-WHKEP-02', 'REQ-WHKEP-03', 'REQ-WHKEP-05'],
  explain: {
    sends:
      'Nothing: reads the webhooks scenario, where the client registers its receiver and fetches the key the sandbox signs deliveries with.',
    passes: 'A POST or PUT /webhooks with an https url answered 2xx, and after it a GET /webhooks/key answered 2xx.',
    fails:
      'No registration, none answered 2xx, a url that is not https, or no GET /webhooks/key after the registration (the key is generated when the webhook is configured).',
  },
  async run(ctx) {
    const record = scenarioOf(ctx, 'webhooks');
    stopWhenBlocked(ctx, record.requests);
    const route = (r: ClientRequest) => r.path.split('?')[0];
    const registrations = record.requests.filter(
      (r) => (r.method === 'POST' || r.method === 'PUT') && route(r) === '/webhooks',
    );
    const sent = record.requests.map(line).join('; ') || 'no request at all';
    if (registrations.length === 0)
      ctx.fail('the client never registered its receiver', {
        expected: 'POST /webhooks (or PUT /webhooks) {"url": "https://127.0.0.1:PORT/…", "subscriptions": ["ALL"]}',
        observed: `the client sent: ${sent}`,
      });
    const done = registrations.filter((r) => is2xx(r.status));
    if (done.length === 0) {
      const last = registrations[registrations.length - 1]!;
      ctx.fail(`no registration of the receiver succeeded: ${line(last)}`, {
        expected: 'POST or PUT /webhooks answered 2xx',
        observed: registrations.map(line).join('; '),
        exchange: cite(ctx, last),
      });
    }
    const registration = done[0]!;
    const url = urlOf(registration.body);
    if (url === undefined || !url.startsWith('https://'))
      ctx.fail('the receiver was registered without an https url', {
        expected: 'a body with "url": an https URL string (the receiver listens with the certificate it was handed)',
        observed: url === undefined ? 'no url string in the body' : `url ${url}`,
        exchange: cite(ctx, registration),
      });
    const key = record.requests.find(
      (r) => r.method === 'GET' && route(r) === '/webhooks/key' && r.seq > registration.seq && is2xx(r.status),
    );
    if (key === undefined) {
      const tried = record.requests.filter((r) => r.method === 'GET' && route(r) === '/webhooks/key');
      return ctx.fail('the client did not fetch the delivery key after registering its receiver', {
        expected: `GET /webhooks/key answered 2xx after #${registration.seq} ${line(registration)}`,
        observed: tried.length > 0 ? tried.map((r) => `#${r.seq} ${line(r)}`).join('; ') : 'no GET /webhooks/key',
        exchange: cite(ctx, tried[tried.length - 1] ?? registration),
      });
    }
    cite(ctx, registration);
    cite(ctx, key);
    ctx.judged(`#${registration.seq} ${line(registration)}`);
    ctx.judged(`#${key.seq} ${line(key)}`);
  },
});

function urlOf(body: Buffer): string | undefined {
  try {
    const url = (JSON.parse(body.toString('utf8')) as { url?: unknown }).url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

const acceptsValid = defineCheck({
  id: 'client.webhooks.accepts-valid',
  title: 'The receiver accepts every valid delivery',
  level: 'MUST',
  requirements: ['REQ-AUTH-12', 'REQ-EVT-14'],
  explain: {
    sends:
      'Nothing: reads the webhooks scenario, where the sandbox sent 2 deliveries signed with the key it published on GET /webhooks/key.',
    passes: 'The eventId of every valid delivery is in CONFORMANCE_ACCEPTED_FILE.',
    fails:
      'A valid delivery not accepted: a receiver that discards what verifies (or discards everything) would pass the forgery checks without verifying anything.',
  },
  async run(ctx) {
    const record = scenarioOf(ctx, 'webhooks');
    const valid = deliveriesOf(ctx, record).filter((d) => d.kind === 'valid');
    if (valid.length === 0) ctx.skip('the sandbox sent no valid delivery');
    const missed = valid.filter((d) => !record.accepted.includes(d.eventId));
    if (missed.length === 0) return ctx.judged('a valid delivery', valid.length);
    for (const d of missed) cite(ctx, d);
    ctx.fail(
      `the receiver did not accept ${missed.length === 1 ? 'a valid delivery' : `${missed.length} valid deliveries`}`,
      {
        expected:
          'every delivery whose Content-Digest and signature (by the key of GET /webhooks/key) verify is accepted: its eventId written to CONFORMANCE_ACCEPTED_FILE',
        observed: `${missed.map((d) => `eventId ${d.eventId}: ${answerOf(d)}, not in the file`).join('; ')}; the file held ${record.accepted.length} line${record.accepted.length === 1 ? '' : 's'}`,
        exchange: missed[0]!.exchange,
      },
    );
  },
});

const discardsForged = defineCheck({
  id: 'client.webhooks.discards-forged',
  title: 'The receiver discards deliveries whose digest or signature fails',
  level: 'MUST',
  requirements: ['REQ-AUTH-12'],
  explain: {
    sends: `Nothing: reads the webhooks scenario, where the sandbox sent forged deliveries (${FORGED.join(', ')}).`,
    passes: 'No forged delivery’s eventId is in CONFORMANCE_ACCEPTED_FILE.',
    fails: 'A forged delivery accepted; the finding names each kind accepted, with its exchange.',
  },
  async run(ctx) {
    const accepted = acceptedOf(ctx, scenarioOf(ctx, 'webhooks'), FORGED);
    if (accepted.length === 0) return judgedKinds(ctx, scenarioOf(ctx, 'webhooks'), FORGED);
    failNaming(
      ctx,
      `the receiver accepted ${accepted.length === 1 ? 'a forged delivery' : `${accepted.length} forged deliveries`}`,
      accepted,
      'every delivery whose Content-Digest does not match its body, or whose signature does not verify with the key of GET /webhooks/key, is discarded (its eventId never written)',
    );
  },
});

const discardsStale = defineCheck({
  id: 'client.webhooks.discards-stale',
  title: 'The receiver discards deliveries signed outside their window, and replays',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-09'],
  explain: {
    sends:
      'Nothing: reads the webhooks scenario, where the sandbox sent a delivery past its expires, one created 10 minutes ahead, and a valid delivery again, byte for byte, after its window.',
    passes: 'None of them accepted (the replay’s eventId written once at most).',
    fails:
      'The expired or future one accepted, or the replay’s eventId written a second time: the receiver does not hold deliveries to their created/expires window.',
  },
  async run(ctx) {
    const accepted = acceptedOf(ctx, scenarioOf(ctx, 'webhooks'), STALE);
    if (accepted.length === 0) return judgedKinds(ctx, scenarioOf(ctx, 'webhooks'), STALE);
    failNaming(
      ctx,
      `the receiver accepted ${accepted.length === 1 ? 'a stale delivery' : `${accepted.length} stale deliveries`}`,
      accepted,
      'a delivery past its expires, or created in the future, is refused, and a delivery already accepted is not accepted again once its window has passed',
    );
  },
});

const refusesForged = defineCheck({
  id: 'client.webhooks.refuses-forged',
  title: 'The receiver answers a forged delivery with a non-2xx status',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-15'],
  explain: {
    sends: `Nothing: reads the webhooks scenario's answers to the forged deliveries (${FORGED.join(', ')}) the receiver discarded.`,
    passes:
      'Every forged delivery the receiver discarded (its eventId not in the accepted file) and answered got a non-2xx status (a 4xx).',
    fails:
      "A 2xx to a forged delivery the receiver discarded: the sender is told it was delivered. A forged delivery it accepted is client.webhooks.discards-forged's failure, and one left unanswered is not judged here.",
  },
  async run(ctx) {
    const record = scenarioOf(ctx, 'webhooks');
    const forged = deliveriesOf(ctx, record).filter((d) => (FORGED as readonly string[]).includes(d.kind));
    // One cause, one failure: accepting a forged delivery is discards-forged's; its 2xx follows from that.
    const discarded = forged.filter((d) => !record.accepted.includes(d.eventId));
    const answered = discarded.filter((d) => d.status !== undefined);
    if (answered.length === 0)
      ctx.skip(
        discarded.length === 0
          ? 'the receiver discarded none of the forged deliveries (client.webhooks.discards-forged judges that)'
          : `the receiver answered none of the ${discarded.length} forged deliveries it discarded (no HTTP answer to judge)`,
      );
    const ok = answered.filter((d) => is2xx(d.status));
    if (ok.length === 0) return ctx.judged('a forged delivery discarded', answered.length);
    failNaming(
      ctx,
      `the receiver answered 2xx to ${ok.length === 1 ? 'a forged delivery' : `${ok.length} forged deliveries`}`,
      ok,
      'a delivery the receiver must discard is answered with a non-2xx status (a 4xx)',
    );
  },
  // Observed traffic (`conformance proxy --receiver`): the server's deliveries the proxy forwarded to the receiver, each
  // verified with the keys of the client's 2xx GET /webhooks/key answers; a 2xx answer to one whose digest or signature
  // does not verify is the receiver's failure (the server's own is webhooks.delivery.verified's, on its side).
  async observe(ctx) {
    const { requests } = observedTraffic(ctx);
    const deliveries = observedDeliveries(ctx).filter((d) => d.captured && d.answered !== undefined);
    if (deliveries.length === 0)
      ctx.skip(
        'the traffic holds no webhook delivery the receiver answered (`conformance proxy --receiver` fronts the receiver to see them)',
      );
    const keys = requests
      .filter((r) => r.method === 'GET' && r.path.split('?')[0] === '/webhooks/key' && is2xx(r.status))
      .flatMap((r) => {
        const body = r.reply as { data?: unknown } | undefined;
        const found = findWebhookKey(body !== null && typeof body === 'object' && 'data' in body ? body.data : body);
        return found.ok ? [found.found.key] : [];
      })
      .reverse();
    if (keys.length === 0)
      ctx.skip('no 2xx answer of GET /webhooks/key in the traffic holds a key to verify the deliveries with');
    const broken = (await Promise.all(deliveries.map((d) => verifyObserved(d, keys)))).filter(
      (v) => v.problems.length > 0,
    );
    if (broken.length === 0)
      ctx.skip(`every one of the ${deliveries.length} deliveries verifies: none for the receiver to refuse`);
    const ok = broken.filter((v) => is2xx(v.d.answered));
    if (ok.length > 0) {
      for (const v of ok) cite(ctx, v.d);
      const first = ok[0]!;
      ctx.fail(
        `the receiver answered 2xx to ${ok.length === 1 ? 'a delivery that does' : `${ok.length} deliveries that do`} not verify: ${ok
          .slice(0, 3)
          .map((v) => `${deliveryLine(v.d)} → ${v.d.answered} (${v.problems.join('; ')})`)
          .join(' | ')}`,
        {
          expected: 'a delivery whose digest or signature does not verify is answered with a non-2xx status (a 4xx)',
          observed: `${deliveryLine(first.d)} → ${first.d.answered}: ${first.problems.join('; ')}`,
          exchange: first.d.exchange,
        },
      );
    }
    ctx.judged('a delivery that does not verify, and its answer', broken.length);
  },
});

export default defineSuite({
  name: 'client.webhooks',
  title: 'Client: webhooks',
  checks: [registered, acceptsValid, discardsForged, discardsStale, refusesForged],
});
