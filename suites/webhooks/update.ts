// Area `webhooks.update`: PUT /webhooks replaces the subscription list, and a new url moves the webhook.
import {
  AUTOMATIC_SUBSCRIPTION as AUTOMATIC,
  configOf,
  describeDelivery,
  describeResponse,
  expectSuccess,
  isSuccess,
  pathAndQuery,
  type HttpResponse,
  webhookOfResponse,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { type SuiteState, receiverOf, stateOf } from './helpers/state.js';
import { configure, currentConfig, register, put, fetchKey, subscribe } from './helpers/endpoints.js';
import { issueToken, forToken, revokeQuietly } from './helpers/tokens.js';
import { type Awaited, eventOf, tryDelivery, missing, expectEmitted } from './helpers/deliveries.js';

const AUTH_NAMES = ['AUTH', 'AUTH.CREATED', 'AUTH.DELETED'];

/**
 * Moves the webhook to the receiver's second URL and judges the move; the caller moves it back. Returns the failure to
 * raise when no event came after the move at all, which is this check's only if the server emits that event.
 */
async function judgeMove(ctx: CheckContext, st: SuiteState, moved: string): Promise<(() => never) | undefined> {
  const receiver = receiverOf(ctx);
  const res = await configure(ctx, 'PUT', { url: moved, subscriptions: ['ALL'] });
  expectSuccess(
    ctx,
    res,
    `PUT /webhooks with the url ${moved} (the same receiver, another query) is accepted (a 2xx answer)`,
  );
  const answered = webhookOfResponse(res);
  if (answered !== undefined) ctx.observe(`PUT /webhooks answered with url ${JSON.stringify(answered.url)}`);
  const now = await currentConfig(ctx);
  if (now.config?.url !== moved) {
    ctx.fail('GET /webhooks does not show the new url', {
      expected: `url ${JSON.stringify(moved)} after PUT /webhooks with it ("update webhook details")`,
      observed: describeResponse(now.res),
      exchange: now.res.exchange,
    });
  }
  // Which url the update's own event goes to is not shown; the next event goes to the new one.
  const at = pathAndQuery(moved);
  const cursor = receiver.cursor();
  const issued = await issueToken(ctx);
  try {
    const mine = forToken(st, issued.tokenId);
    const awaited: Awaited = {
      what: `AUTH.CREATED (after the move to ${at})`,
      after: cursor,
      match: (x) => eventOf(x) === 'AUTH.CREATED' && mine(x),
      trigger: issued.res,
    };
    const d = await tryDelivery(ctx, st, awaited);
    if (d === undefined) return missing(ctx, awaited);
    await receiver.settled();
    const old = receiver.arrivals.find((x) => x.seq > cursor && awaited.match(x) && x.path !== at);
    const wrong = old ?? d;
    // Behind a proxy that rewrote the URL beyond reading back, where it was sent cannot be judged: a set-up problem.
    if (wrong.route?.kind === 'unmapped') ctx.setupProblem(receiver.diagnoseUnmapped(wrong));
    if (d.path !== at || old !== undefined) {
      const which = wrong.path === pathAndQuery(receiver.url) ? 'the old url' : 'a url the run never registered';
      ctx.fail(`the first event after the move was delivered to ${wrong.path}, ${which}, not ${at}`, {
        expected: `deliveries go to the new url ${moved} once GET /webhooks shows it`,
        observed: describeDelivery(wrong),
        exchange: res.exchange,
      });
    }
    ctx.observe(`moved to ${moved}: GET /webhooks shows it, and AUTH.CREATED delivery #${d.seq} came to ${d.path}`);
    ctx.judged(`the move to ${at}: GET /webhooks after it, and AUTH.CREATED delivery #${d.seq}`);
    return undefined;
  } finally {
    await revokeQuietly(ctx, issued.token);
  }
}

export const updateReplaces = defineCheck({
  id: 'webhooks.update.replaces',
  title: 'PUT /webhooks with a new subscription list replaces the earlier list',
  level: 'MUST',
  requirements: ['REQ-WHKEP-03', 'REQ-EVT-13'],
  explain: {
    sends: 'PUT /webhooks with subscriptions ["AUTH"], then with ["WEBHOOK"], then GET /webhooks',
    passes:
      'GET /webhooks then shows ["WEBHOOK"] (WEBHOOK.CREATED may be listed too), nothing of AUTH or ALL; what the PUT answers is recorded (its body is not shown)',
    fails:
      'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
  },
  async run(ctx) {
    await register(ctx);
    await put(ctx, ['AUTH']);
    const res = await put(ctx, ['WEBHOOK']);
    const judge = (subs: string[], r: HttpResponse, where: string) => {
      const kept = subs.filter((s) => s === 'ALL' || AUTH_NAMES.includes(s));
      const has = subs.includes('WEBHOOK') || ['WEBHOOK.CREATED', 'WEBHOOK.UPDATED'].every((s) => subs.includes(s));
      if (kept.length > 0 || !has) {
        ctx.fail(
          `${where}: subscriptions ${JSON.stringify(subs)} ${kept.length > 0 ? `still hold ${JSON.stringify(kept)} from the earlier lists` : 'lack WEBHOOK'}`,
          {
            expected: `after PUT ["AUTH"] then PUT ["WEBHOOK"], the subscriptions are ["WEBHOOK"] (${AUTOMATIC}, the automatic subscription, may be listed too)`,
            observed: describeResponse(r),
            exchange: r.exchange,
          },
        );
      }
    };
    // The answer's body is not shown (REQ-WHKEP-08): what it lists is recorded; GET /webhooks is the configuration.
    const answered = webhookOfResponse(res);
    if (answered && Array.isArray(answered.subscriptions))
      ctx.observe(`the PUT answer lists ${JSON.stringify(configOf(answered).subscriptions)}`);
    const now = await currentConfig(ctx);
    if (now.config === undefined)
      return ctx.fail('GET /webhooks shows no webhook after the update', {
        expected: 'the updated configuration',
        observed: describeResponse(now.res),
        exchange: now.res.exchange,
      });
    judge(now.config.subscriptions, now.res, 'GET /webhooks');
    ctx.observe(`subscriptions after the update: ${JSON.stringify(now.config.subscriptions)}`);
    ctx.judged('the subscriptions GET /webhooks shows after the two updates');
  },
});

export const updateUrl = defineCheck({
  id: 'webhooks.update.url',
  title: 'PUT /webhooks with a new url moves the webhook: GET /webhooks shows it and the next event is delivered there',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-WHKEP-03'],
  explain: {
    sends:
      'PUT /webhooks moving the webhook to a second URL of the receiver, GET /webhooks, a token request whose AUTH.CREATED is awaited, then PUT /webhooks back to the first URL',
    passes: 'GET /webhooks shows the new URL, and the AUTH.CREATED delivery comes to it',
    fails:
      'the new URL not shown, the event delivered to the old URL or not at all, or the move back refused: the check fails',
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await fetchKey(ctx);
    await subscribe(ctx, ['ALL']);
    const receiver = receiverOf(ctx);
    let failure: unknown;
    let nothingCame: (() => never) | undefined;
    try {
      nothingCame = await judgeMove(ctx, st, receiver.alternateUrl);
    } catch (e) {
      failure = e;
    }
    // Back to the receiver's first URL whatever happened, so the checks after this one see the configuration they expect.
    const back = await configure(ctx, 'PUT', { url: receiver.url, subscriptions: ['ALL'] });
    if (!isSuccess(back)) {
      st.registrationProblem = `PUT /webhooks could not move the webhook back to ${receiver.url}: ${describeResponse(back)}`;
      if (failure === undefined)
        ctx.fail(`PUT /webhooks with the url ${receiver.url} answered ${back.status}`, {
          expected: 'the webhook is moved back (a 2xx answer)',
          observed: describeResponse(back),
          exchange: back.exchange,
        });
      ctx.observe(`moving the webhook back to ${receiver.url} failed too: ${describeResponse(back)}`);
    }
    if (failure !== undefined) throw failure;
    if (nothingCame !== undefined) {
      await expectEmitted(ctx, st, 'AUTH.CREATED', 'no AUTH.CREATED delivery after the move, at either path');
      nothingCame();
    }
  },
});
