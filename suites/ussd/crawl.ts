// Area `ussd.crawl`: the crawl of the menu graph ends within its caps.
import { defineCheck } from '../../src/engine/index.js';
import { SKIP_REASONS, formatTrail, type Crawl } from './helpers/crawler.js';
import { crawlSummary, deadLinks } from './helpers/menu-graph.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl } from './helpers/shared-crawl.js';
import { skipIfNothingFollowed } from './helpers/verdicts.js';

/** The frontier: views the caps or the budget left unvisited. */
export function frontierLines<R>(crawl: Crawl<R>, max = 10): string[] {
  return crawl.frontier
    .slice(0, max)
    .map((f) => `${formatTrail(f.start, f.steps)}: GET ${f.url} (${SKIP_REASONS[f.reason]})`);
}

export const crawlChecks = [
  defineCheck({
    id: 'ussd.crawl.bounded',
    title: 'The USSD menus end: a crawl from the start menus covers them within the view and depth caps',
    level: 'SHOULD',
    requirements: ['REQ-SVC-04'],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes:
        "the server's answers show that the USSD menus end: a crawl from the start menus covers them within the view and depth caps",
      fails:
        'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      for (const line of crawlSummary(c)) ctx.observe(line);
      for (const note of deadLinks(c).notes) ctx.observe(`start menu not reachable: ${note}`);
      if (c.frontier.length === 0) {
        skipIfNothingFollowed(ctx, c, 'whether the menus end is not known beyond the start menus');
        // The menus end where the crawl ended without a cap: every view it visited is a subject.
        ctx.judged('view visited by the crawl', c.views.size);
        return;
      }
      const reasons = [...new Set(c.frontier.map((f) => f.reason))];
      const lines = frontierLines(c);
      ctx.fail(
        `the crawl stopped before the menus ended (${reasons.join(', ')}): ${c.frontier.length} views not visited; the graph may be without end`,
        {
          expected: `every menu reachable within ${c.options.maxViews} views and ${c.options.maxDepth} options from a start menu (raise --ussd-max-views / --ussd-max-depth for a larger menu tree)`,
          observed: [`frontier (first ${lines.length} of ${c.frontier.length}):`, ...lines.map((l) => `- ${l}`)].join(
            '\n',
          ),
        },
      );
    },
  }),
];
