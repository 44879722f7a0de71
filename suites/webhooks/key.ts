// Area `webhooks.key`: the Ed25519 public key GET /webhooks/key publishes, under which the deliveries verify.
import {
  cite,
  deliveryLine,
  describeDelivery,
  describeKeyForm,
  describeResponse,
  headerValue,
  observedDeliveries,
  observedLine,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { register, fetchKey, keyOfAnswer } from './helpers/endpoints.js';
import { observedWebhookReads } from './helpers/observed.js';
import { observedKeys, unreadKeySaid, verifiedObserved } from './helpers/observed-deliveries.js';
import { stateOf, receiverOf } from './helpers/state.js';
import { ofSecondClient } from './helpers/creation.js';
import { awaitNeeded, reachableAfterWait, silence } from './helpers/reach.js';
import { alsoSeeDiscarded } from './helpers/deliveries.js';

export const keyPublished = defineCheck({
  id: 'webhooks.key.published',
  title: 'GET /webhooks/key gives an Ed25519 public key, and the deliveries verify under it',
  level: 'MUST',
  requirements: ['REQ-SVC-06', 'REQ-WHKEP-05', 'REQ-EVT-14'],
  explain: {
    sends:
      'GET /webhooks/key, after the receiver\'s https URL registered with subscriptions ["ALL"]: POST /webhooks, or PUT where a webhook existed before the suite; the receiver waits for the registration\'s delivery',
    passes:
      "the answer holds an Ed25519 public key (PEM, JWK or 32 raw bytes), and the registration's delivery is signed by it",
    fails:
      'no key in the answer, or a delivery signed by another key: the check fails; skipped when no delivery arrives',
  },
  async run(ctx) {
    const reg = await register(ctx);
    const st = stateOf(ctx);
    const key = await fetchKey(ctx);
    if (key === undefined) {
      return ctx.fail(st.keyProblem ?? 'no key', {
        expected: 'an Ed25519 public key (PEM, JWK or raw 32 bytes) in the answer of GET /webhooks/key',
        observed: st.keyRes ? describeResponse(st.keyRes) : (st.keyProblem ?? ''),
        ...(st.keyRes ? { exchange: st.keyRes.exchange } : {}),
      });
    }
    ctx.observe(`key: ${describeKeyForm(key)}`);
    const receiver = receiverOf(ctx);
    const trigger = st.keyRes ?? reg.res;
    // The registration's own event (WEBHOOK.CREATED, or WEBHOOK.UPDATED for a PUT under ["ALL"]) is what the key must verify.
    const ofSecond = ofSecondClient(ctx, st);
    const d = await awaitNeeded(ctx, st, (x) => x.seq > reg.cursor && !ofSecond(x), receiver.deadlineMs);
    if (d === undefined) {
      await reachableAfterWait(ctx, st);
      return ctx.skip(`no delivery arrived to verify the key with (${silence(receiver)}); the event checks report it`);
    }
    await receiver.settled();
    if (d.route?.kind === 'unmapped') ctx.setupProblem(receiver.diagnoseUnmapped(d));
    // This check judges the key alone: which key signed. Coverage, times and the digest are delivery.verified's.
    if (d.signedBy === 'other-key') {
      ctx.fail(
        `a delivery does not verify under the published key: ${d.signature?.reason ?? 'another key signed it'}`,
        {
          expected: 'the deliveries are signed by the key that GET /webhooks/key publishes',
          observed: describeDelivery(d),
          exchange: trigger.exchange,
        },
      );
    }
    alsoSeeDiscarded(ctx, d, `delivery #${d.seq}`);
    if (d.signedBy === 'unsigned')
      return ctx.skip(
        `delivery #${d.seq} carries no signature that can be read (${d.signature?.reason ?? 'none'}), so nothing shows which key signed it; webhooks.delivery.verified judges the delivery`,
      );
    if (d.signature?.keyId !== undefined)
      ctx.observe(
        `deliveries are signed with keyid ${JSON.stringify(d.signature.keyId)}${key.keyId !== undefined ? (key.keyId === d.signature.keyId ? ', the key id published with the key' : `, not the published key id ${JSON.stringify(key.keyId)}`) : ''}`,
      );
    ctx.judged(`the published key, over delivery #${d.seq}`);
  },
  // Observed traffic: every 2xx answer of GET /webhooks/key after its client configured a webhook holds a key (before
  // one, a server may have none to give; which key signs the deliveries needs the deliveries: the proxy's webhook leg).
  async observe(ctx) {
    const answers = observedWebhookReads(ctx, '/webhooks/key')
      .filter((r) => r.configured)
      .map((r) => r.res);
    if (answers.length === 0)
      ctx.skip('no 2xx answer of GET /webhooks/key in the traffic follows a configuration by its client');
    for (const res of answers) {
      const got = keyOfAnswer(res);
      if ('problem' in got)
        return ctx.fail(got.problem, {
          expected: 'an Ed25519 public key (PEM, JWK or raw 32 bytes) in the answer of GET /webhooks/key',
          observed: describeResponse(res),
          exchange: cite(ctx, res),
        });
      ctx.observe(`${observedLine(ctx, res)}: key ${describeKeyForm(got.key)}`);
    }
    ctx.judged('an answer of GET /webhooks/key', answers.length);
    // Which key signed the deliveries the traffic holds (`conformance proxy --receiver`, a run's --har): one signed by
    // another key than those published fails here, as in a run; a digest, or a signature that cannot be read, is
    // webhooks.delivery.verified's.
    // A masked signature (a HAR that redacts it) shows no key: not judged here.
    const deliveries = observedDeliveries(ctx).filter((d) => d.captured && !d.masked);
    if (deliveries.length === 0) return;
    const keys = observedKeys(ctx);
    const verdicts = await verifiedObserved(ctx, deliveries, keys);
    const unread = unreadKeySaid(ctx, verdicts, deliveries.length);
    if (unread !== undefined) ctx.observe(unread);
    const other = verdicts.filter((v) => v.signedBy === 'other-key' && v.keyUnread === undefined);
    const judged = deliveries.length - verdicts.filter((v) => v.keyUnread !== undefined).length;
    if (other.length > 0) {
      for (const v of other) cite(ctx, v.d);
      const first = other[0]!;
      const why = first.problems.filter((p) => p.startsWith('signature')).join('; ');
      ctx.fail(
        `${other.length} of ${judged} deliveries do not verify under the published key: ${deliveryLine(first.d)}: ${why}`,
        {
          expected: 'the deliveries are signed by the key that GET /webhooks/key publishes',
          observed: `${deliveryLine(first.d)}: Signature-Input ${headerValue(first.d.headers, 'signature-input') ?? '(absent)'}; ${why}`,
          exchange: first.d.exchange,
        },
      );
    }
    if (judged === 0) return;
    ctx.observe(`none of the ${judged} deliveries of the session is signed by a key other than those published`);
    ctx.judged('a delivery, which key signed it', judged);
  },
});
