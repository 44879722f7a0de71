// Area `ussd.flow`: an order placed and canceled through the menus (--allow-mutations).
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { type CrawlLink } from './helpers/crawler.js';
import { mutationOf } from './helpers/url.js';
import { linkTrail } from './helpers/menu-graph.js';
import { ORDER_STATUSES, listingsByStatus, optionLinks, requestsOfMenu } from './helpers/requests-lists.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl, ussdUrl } from './helpers/shared-crawl.js';
import { answerLine } from './helpers/verdicts.js';

/**
 * The option URLs of a USSD view body, where they lead below `{base_url}` (a link written on another origin is followed
 * by its path, as the crawl does: url.ts followedUrl); none when the body is not one.
 */
function optionUrls(ctx: CheckContext, text: string, base: string): URL[] {
  return optionLinks(ctx, text, base).urls;
}

async function statusesListing(ctx: CheckContext, customerId: number, requestId: string): Promise<string[]> {
  const listings = await listingsByStatus(ctx, customerId, ORDER_STATUSES);
  return ORDER_STATUSES.filter((status) => listings.get(status)!.ids.has(requestId));
}

function amountOf(link: CrawlLink): number {
  const u = new URL(link.url!);
  for (const [k, v] of u.searchParams) if (k.toLowerCase() === 'amount') return Number(v);
  return Number.POSITIVE_INFINITY;
}

export const flowChecks = [
  defineCheck({
    id: 'ussd.flow.order-cancel',
    title:
      'With --allow-mutations: an order placed through input mode is listed PENDING, then canceled through cancel mode and listed CANCELED',
    level: 'INFO',
    requirements: ['REQ-STATE-07'],
    explain: {
      sends:
        'with --allow-mutations only: the smallest order the crawled menus offer (an option carrying amount), then the requests menu, the detail of the new request and its cancel option',
      passes:
        'always, once the answer could be read: the check records the status filters the new request is listed under once placed (PENDING expected) and once canceled (CANCELED expected)',
      fails:
        'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning); without --allow-mutations it is skipped',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      if (!ctx.flags.allowMutations)
        ctx.skip('places and cancels an order: runs only with --allow-mutations', { kind: 'allow-mutations' });
      const customerId = ctx.fixture('customerId');
      const c = await sharedCrawl(ctx);
      const orders = c.links.filter((l) => l.mutation === 'order' && l.url !== undefined);
      // The smallest amount offered: the least a real account is charged if the server executes it.
      const order = orders.sort((a, b) => amountOf(a) - amountOf(b))[0];
      if (!order) return ctx.skip('no option of the menus carries amount: no order can be placed through them');

      const before = (await requestsOfMenu(ctx, customerId)).ids;
      const placed = await ctx.send({ method: 'GET', path: order.url! });
      ctx.observe(`placed an order: ${linkTrail(c, order)} → GET ${order.url} → ${answerLine(placed)}`);
      // What the server answered to an order is recorded whatever it was: the subject of this INFO check.
      ctx.judged(`order placed: GET ${order.url}`);
      if (placed.status !== 200) return;
      const offered = optionUrls(ctx, placed.text, order.url!)
        .map((u) => u.searchParams.get('requestId'))
        .filter((id): id is string => id !== null);
      const after = (await requestsOfMenu(ctx, customerId)).ids;
      const requestId = offered[0] ?? [...after.keys()].find((id) => !before.has(id));
      if (requestId === undefined) {
        ctx.observe(
          'the new order request could not be found: no requestId on the confirmation, and no new request in the requests menu',
        );
        return;
      }
      ctx.observe(
        `request ${requestId} is listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (PENDING expected)`,
      );

      const detailUrl = ussdUrl(ctx, 'requests', { customerId, requestId });
      const detail = await ctx.send({ method: 'GET', path: detailUrl });
      const cancel = (detail.status === 200 ? optionUrls(ctx, detail.text, detailUrl) : []).find(
        (u) => mutationOf(u) === 'cancel' && u.searchParams.get('requestId') === requestId,
      );
      if (!cancel) {
        ctx.observe(`the detail of request ${requestId} (GET ${detailUrl} → ${detail.status}) offers no cancel option`);
        return;
      }
      const canceled = await ctx.send({ method: 'GET', path: cancel.href });
      ctx.observe(`canceled it: GET ${cancel.href} → ${answerLine(canceled)}`);
      ctx.observe(
        `request ${requestId} is then listed under: ${(await statusesListing(ctx, customerId, requestId)).join(', ') || 'no status filter'} (CANCELED expected)`,
      );
    },
  }),
];
