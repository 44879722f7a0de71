// Suite `resources`, area `numbers`: integers a JavaScript client reads exactly.
import { observedAnswers, observedPath, unsafeNumbersOf, type HttpResponse } from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { BY_ID, LISTS } from './helpers/endpoints.js';
import { fail } from './helpers/fail.js';
import { readOnce } from './helpers/fixture-reads.js';

export const numbersSafeIntegers = defineCheck({
  id: 'resources.numbers.safe-integers',
  title: 'integers in resource responses stay within ±(2^53 − 1), so a JavaScript client reads ids exactly',
  level: 'SHOULD',
  requirements: ['REQ-HDR-20'],
  explain: {
    sends:
      'GET of each fixture record (customer, account, asset, transaction) and the first page of each list (accounts, instruments, transactions)',
    passes: 'no integer in those answers is beyond ±(2^53 − 1), so a JavaScript client reads ids exactly',
    fails: 'an integer beyond it (the report lists where): the check warns',
  },
  async run(ctx) {
    const responses: HttpResponse[] = [];
    const f = ctx.fixtures;
    for (const ep of BY_ID) {
      const id = f[ep.fixture];
      if (id !== undefined) responses.push(await readOnce(ctx, `${ep.prefix}/${id}`));
    }
    for (const ep of LISTS) {
      if (ep.name !== 'instruments' && f.customerId === undefined) continue;
      responses.push(await readOnce(ctx, ep.path, ep.query(ctx)));
    }
    judgeSafeIntegers(ctx, responses);
  },
  async observe(ctx) {
    const resource = (path: string | undefined) =>
      path !== undefined &&
      (BY_ID.some((ep) => new RegExp(`^${ep.prefix}/[^/]+$`).test(path)) || LISTS.some((ep) => ep.path === path));
    judgeSafeIntegers(
      ctx,
      observedAnswers(
        ctx,
        'answer of a resource read',
        (res) => res.status === 200 && resource(observedPath(ctx, res)),
      ),
    );
  },
});

/** No integer in the answers beyond ±(2^53 − 1); each answer with one is named, with its first five such values. */
function judgeSafeIntegers(ctx: CheckContext, responses: readonly HttpResponse[]): void {
  let found = 0;
  for (const res of responses) {
    const unsafe = unsafeNumbersOf(res);
    found += unsafe.length;
    if (unsafe.length) {
      const listed = unsafe
        .slice(0, 5)
        .map(
          (u) => `${u.path} = ${u.text}${String(u.parsed) !== u.text ? ` (a double reads ${String(u.parsed)})` : ''}`,
        )
        .join('; ');
      fail(
        ctx,
        res,
        `${unsafe.length} integer(s) beyond 2^53 − 1 in ${res.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')}: ${listed}`,
        'every integer within ±9007199254740991, which a JavaScript client holds exactly',
      );
    }
  }
  for (const res of responses) ctx.judged(res.exchange.request.url.replace(/^https?:\/\/[^/]+/, ''));
  ctx.observe(`${responses.length} responses scanned, ${found} unsafe integers`);
}
