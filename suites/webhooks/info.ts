// Area `webhooks.info`: what the server does with a subscription name no table lists (INFO).
import { describeResponse, isSuccess, sameConfig, showWebhook as show } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { stateOf, receiverOf } from './helpers/state.js';
import { register, currentConfig, configure } from './helpers/endpoints.js';

/** A subscription name no table of the spec lists, for the unknown-name probe (REQ-EVT-04). */
const UNKNOWN_SUBSCRIPTION = 'CONFORMANCE.NO-SUCH-EVENT';

export const infoUnknownSubscription = defineCheck({
  id: 'webhooks.info.unknown-subscription',
  title:
    'what the server does with a subscription name no table lists: refused, accepted and ignored, or accepted and kept',
  level: 'INFO',
  requirements: ['REQ-EVT-04'],
  explain: {
    sends: `PUT /webhooks with the receiver's URL and subscriptions ["ALL", "${UNKNOWN_SUBSCRIPTION}"], then GET /webhooks`,
    passes:
      'always, once the answer could be read: the check records whether the unknown name was refused (any 4xx), accepted and left out of the list GET /webhooks shows, or accepted and listed (the Events table\'s domain is open: "Event kinds of other domains …: not shown")',
  },
  async run(ctx) {
    const st = stateOf(ctx);
    await register(ctx);
    const before = await currentConfig(ctx);
    const list = ['ALL', UNKNOWN_SUBSCRIPTION];
    const res = await configure(ctx, 'PUT', { url: receiverOf(ctx).url, subscriptions: list });
    // Whatever the server made of it, the next check sets its own list afresh.
    st.subscriptions = undefined;
    const after = await currentConfig(ctx);
    const sent = `PUT /webhooks with subscriptions ${JSON.stringify(list)}`;
    ctx.judged(`the answer of ${sent}, and GET /webhooks after it`);
    if (!isSuccess(res)) {
      ctx.observe(
        `an unknown name refused: ${sent} answered ${describeResponse(res)}; the configuration ${sameConfig(before.config, after.config) ? 'stayed' : 'is now'} ${show(after.config)} (REQ-EVT-04)`,
      );
      return;
    }
    const shown = after.config?.subscriptions;
    if (after.config === undefined)
      ctx.observe(
        `${sent} was accepted (${res.status}), and GET /webhooks shows no webhook: whether the unknown name was kept cannot be read (REQ-EVT-04)`,
      );
    else if (shown!.includes(UNKNOWN_SUBSCRIPTION))
      ctx.observe(
        `an unknown name accepted and kept: ${sent} answered ${res.status}, and GET /webhooks lists ${JSON.stringify(shown)} (REQ-EVT-04)`,
      );
    else
      ctx.observe(
        `an unknown name accepted and ignored: ${sent} answered ${res.status}, and GET /webhooks lists ${JSON.stringify(shown)}, without it (REQ-EVT-04)`,
      );
  },
});
