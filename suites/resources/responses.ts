// Suite `resources`, area `responses`: the Content-Type of JSON answers.
import {
  cite,
  isJsonMediaType,
  mediaTypeOf,
  observedAnswers,
  parseJson,
  type HttpResponse,
  type RequestSpec,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { fail } from './helpers/fail.js';

export const responsesJsonType = defineCheck({
  id: 'resources.responses.json-type',
  title:
    'JSON answers, successes and errors, are labelled Content-Type application/json (or a +json type; parameters such as charset allowed)',
  level: 'SHOULD',
  requirements: ['REQ-HDR-02'],
  explain: {
    sends:
      'GET /instruments with and without investmentType, GET /customers/{id} of fixtures.customerId with and without a token, GET /accounts?customerId, and GET /customers/{id} of fixtures.unknownId: successes and errors',
    passes:
      'every answer with a JSON body is labelled Content-Type application/json or a +json type (parameters such as charset allowed)',
    fails: 'a JSON body labelled otherwise, or not at all: the check warns',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    const specs: RequestSpec[] = [
      { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' } },
      { method: 'GET', path: '/instruments' },
    ];
    if (f.customerId !== undefined) {
      specs.push(
        { method: 'GET', path: `/customers/${f.customerId}` },
        { method: 'GET', path: '/accounts', query: { customerId: f.customerId } },
        { method: 'GET', path: `/customers/${f.customerId}`, token: null },
      );
    }
    if (f.unknownId !== undefined) specs.push({ method: 'GET', path: `/customers/${f.unknownId}` });
    const answers: HttpResponse[] = [];
    for (const spec of specs) answers.push(await ctx.send(spec));
    judgeJsonType(ctx, answers);
  },
  async observe(ctx) {
    judgeJsonType(
      ctx,
      observedAnswers(ctx, 'answer with a body', (res) => res.text.length > 0),
    );
  },
});

/** The mislabelled answers a finding names; the rest are counted (and cited, like every one). */
const MISLABELLED_NAMED = 5;

/** Every answer with a JSON body is labelled a JSON media type; answers whose body is not JSON are not judged here. */
function judgeJsonType(ctx: CheckContext, answers: readonly HttpResponse[]): void {
  const mislabelled: HttpResponse[] = [];
  const types = new Set<string>();
  let judged = 0;
  for (const res of answers) {
    // Only a body that is JSON can be mislabelled JSON; one that is not is the business of the checks reading it.
    if (res.text.length === 0 || !parseJson(res.text).ok) continue;
    judged++;
    const type = mediaTypeOf(res);
    types.add(`${res.status} ${res.header('content-type') ?? '(none)'}`);
    if (type === undefined || !isJsonMediaType(type)) mislabelled.push(res);
  }
  if (judged === 0) ctx.skip('no answer carried a JSON body');
  if (mislabelled.length > 0) {
    const first = mislabelled[0]!;
    // Every mislabelled answer is cited (the reports list its exchange); the message names the first few: observed
    // traffic can hold hundreds.
    for (const r of mislabelled) cite(ctx, r);
    const named = mislabelled
      .slice(0, MISLABELLED_NAMED)
      .map(
        (r) =>
          `${r.exchange.request.method} ${r.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${r.status} ${r.header('content-type') ?? 'without Content-Type'}`,
      );
    const more = mislabelled.length - named.length;
    fail(
      ctx,
      first,
      `${mislabelled.length} of ${judged} JSON answer(s) are labelled otherwise: ${named.join('; ')}${more > 0 ? `; and ${more} more (each exchange cited)` : ''}`,
      'Content-Type: application/json (or application/<something>+json) on every JSON answer',
    );
  }
  ctx.judged('a JSON answer', judged);
  ctx.observe(`Content-Type seen: ${[...types].join(', ')}`);
}
