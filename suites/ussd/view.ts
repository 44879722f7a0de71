// Area `ussd.view`: every view is a USSD view (schema, message).
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { ENVELOPE_OWNER, envelopeDefects, isObject, validateAgainst } from '../kit/index.js';
import { type CrawlView } from './helpers/crawler.js';
import { whereIs } from './helpers/menu-graph.js';
import { observedCrawl } from './helpers/observed-crawl.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl, type UssdCrawl } from './helpers/shared-crawl.js';
import { failOn, noViewReason, perView, skipUnjudged } from './helpers/verdicts.js';

/** "Response envelope" and "USSD view": data, code (the status), message, and data.ussdMessage/ussdOptions typed. */
export function schemaProblems<R>(view: CrawlView<R>): string[] {
  if (view.jsonError) return [`the body is not JSON (${view.jsonError})`];
  // code and message are the envelope owner's (envelopeDefects): one cause, one failure.
  const problems = validateAgainst('envelope', view.body)
    .filter((p) => p.path !== 'code' && p.path !== 'message')
    .map((p) => `${p.path} ${p.message}`);
  const env = view.body as Record<string, unknown> | undefined;
  if (typeof env === 'object' && env !== null && 'data' in env)
    problems.push(...validateAgainst('ussd-view', env.data, 'data').map((p) => `${p.path} ${p.message}`));
  return problems;
}

export const viewChecks = [
  defineCheck({
    id: 'ussd.view.schema',
    title:
      'Every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}',
    level: 'MUST',
    requirements: [
      'REQ-SVC-03',
      'REQ-ENV-01',
      'REQ-ENV-03',
      'REQ-ENV-04',
      'REQ-USSDV-01',
      'REQ-USSDV-02',
      'REQ-USSDV-03',
      'REQ-USSD-01',
    ],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes:
        "the server's answers show that every USSD view answers in the envelope, data = {ussdMessage, ussdOptions[{option, requestUrl, requestType}]}",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeViewSchemas(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: every answer of a GET under /ussd/ the traffic holds, each view by itself.
    async observe(ctx) {
      judgeViewSchemas(ctx, observedCrawl(ctx));
    },
  }),
  defineCheck({
    id: 'ussd.view.message',
    title: 'The ussdMessage of every view is text to show the user, not empty',
    level: 'MUST',
    requirements: ['REQ-USSDV-02'],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes: "the server's answers show that the ussdMessage of every view is text to show the user, not empty",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      judgeMessages(ctx, await sharedCrawl(ctx));
    },
    // Observed traffic: every USSD view the traffic holds.
    async observe(ctx) {
      judgeMessages(ctx, observedCrawl(ctx));
    },
  }),
];

/** Every view that answered 200 against "Response envelope" and "USSD view" (the envelope's code and message aside). */
function judgeViewSchemas(ctx: CheckContext, c: UssdCrawl): void {
  const answered = [...c.views.values()].filter((v) => v.status === 200);
  for (const view of answered)
    for (const defect of isObject(view.body) ? envelopeDefects(view.body, view.status!) : [])
      ctx.alsoSee({
        requirements: [defect.requirement],
        ownedBy: ENVELOPE_OWNER,
        message: `the envelope of ${whereIs(view)} has ${defect.what}`,
        ...(view.ref ? { exchange: view.ref } : {}),
      });
  const problems = answered.flatMap((view) => {
    const found = schemaProblems(view);
    ctx.judged(`view GET ${view.url}`);
    return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.slice(0, 4).join('; ')}` }];
  });
  failOn(
    ctx,
    problems,
    'a view does not match the "USSD view" table',
    'the envelope {data, code, message} with data: ussdMessage (string), ussdOptions (array of {option integer, requestUrl string, requestType string})',
  );
  skipUnjudged(ctx, noViewReason(c));
}

/** The ussdMessage of every menu is not empty. */
function judgeMessages(ctx: CheckContext, c: UssdCrawl): void {
  const problems = perView(ctx, c, 'view', (v) =>
    v.ussd.message.trim() === '' ? [`ussdMessage is ${JSON.stringify(v.ussd.message)}`] : [],
  );
  failOn(ctx, problems, 'a menu shows no text', 'a non-empty ussdMessage with the numbered choices');
  skipUnjudged(ctx, noViewReason(c));
}
