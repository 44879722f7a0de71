// Area `webhooks.reject`: a webhook URL that is not a valid https URL is refused, and the configuration stays as it was.
import { describeResponse, expectRejection, sameConfig, showWebhook as show } from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { receiverOf } from './helpers/state.js';
import { currentConfig, configure } from './helpers/endpoints.js';

/** Rejections: a bad body is refused (any 4xx) and the configuration stays as it was. */
async function expectRefused(
  ctx: CheckContext,
  badBody: (receiverUrl: string) => { url: string; subscriptions: string[] },
  expected: string,
): Promise<void> {
  const receiver = receiverOf(ctx);
  const before = await currentConfig(ctx);
  // One webhook per client: where one exists the change would be a PUT, and a POST would be refused for that reason alone.
  const method = before.config === undefined ? 'POST' : 'PUT';
  const res = await configure(ctx, method, badBody(receiver.url));
  expectRejection(ctx, res, `${method} /webhooks: ${expected}`);
  const after = await currentConfig(ctx);
  if (!sameConfig(before.config, after.config)) {
    ctx.fail('the refused request changed the configuration', {
      expected: `the configuration stays ${show(before.config)}`,
      observed: `now ${show(after.config)}: ${describeResponse(after.res)}`,
      exchange: after.res.exchange,
    });
  }
  ctx.observe(`${method} /webhooks refused with ${res.status}; the configuration stayed ${show(before.config)}`);
  ctx.judged(`the answer of ${method} /webhooks and the configuration after it`);
}

export const rejectHttpUrl = defineCheck({
  id: 'webhooks.reject.http-url',
  title: 'a plain http webhook URL is refused and the configuration stays as it was',
  level: 'MUST',
  requirements: ['REQ-WHK-03'],
  explain: {
    sends:
      'POST /webhooks (PUT where a webhook exists) with the receiver\'s URL turned into http:// and subscriptions ["ALL"], then GET /webhooks',
    passes: 'the request is refused (any 4xx), and GET /webhooks shows the configuration as it was before',
    fails: 'a 2xx or a 5xx, or a configuration changed by the refused request: the check fails',
  },
  async run(ctx) {
    await expectRefused(
      ctx,
      (url) => {
        const http = new URL(url);
        http.protocol = 'http:';
        return { url: http.href, subscriptions: ['ALL'] };
      },
      'an http:// URL is not "a valid https URL" and is refused (any 4xx)',
    );
  },
});

export const rejectNotAUrl = defineCheck({
  id: 'webhooks.reject.not-a-url',
  title: 'a webhook URL that is not a URL is refused and the configuration stays as it was',
  level: 'MUST',
  requirements: ['REQ-WHK-03'],
  explain: {
    sends:
      'POST /webhooks (PUT where a webhook exists) with url "not a url" and subscriptions ["ALL"], then GET /webhooks',
    passes: 'the request is refused (any 4xx), and GET /webhooks shows the configuration as it was before',
    fails: 'a 2xx or a 5xx, or a configuration changed by the refused request: the check fails',
  },
  async run(ctx) {
    await expectRefused(
      ctx,
      () => ({ url: 'not a url', subscriptions: ['ALL'] }),
      '"not a url" is not "a valid https URL" and is refused (any 4xx)',
    );
  },
});
