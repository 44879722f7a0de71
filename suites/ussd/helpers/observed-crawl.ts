// The USSD views of observed traffic (a judge of traffic, issue 30) as a crawl the view checks read: every 200 answer of
// a GET under /ussd/ (a refusal is for the checks of the parameters, which send their own), once per URL, each its own
// start (which option led to it the traffic does not say), so that the checks that judge a view by itself judge it
// with the code that judges the views of the suite's own crawl.
import { type CheckContext } from '../../../src/engine/index.js';
import { observedAnswers, observedLine, observedPath, parseJson, type Exchange } from '../../kit/index.js';
import { ussdDataOf, type CrawlView } from './crawler.js';
import { type UssdCrawl } from './shared-crawl.js';
import { scopeOf } from './url.js';

export function observedCrawl(ctx: CheckContext): UssdCrawl {
  const views = new Map<string, CrawlView<Exchange>>();
  const answers = observedAnswers(
    ctx,
    '200 answer of a GET under /ussd/',
    (res) =>
      res.status === 200 &&
      res.exchange.request.method === 'GET' &&
      (observedPath(ctx, res) ?? '').startsWith('/ussd/'),
  );
  for (const res of answers) {
    const url = res.exchange.request.url;
    if (views.has(url)) continue;
    const parsed = parseJson(res.text);
    const ussd = parsed.ok ? ussdDataOf(parsed.value) : undefined;
    views.set(url, {
      key: url,
      url,
      depth: 0,
      start: observedLine(ctx, res),
      optionalStart: false,
      steps: [],
      ancestors: [],
      status: res.status,
      text: res.text,
      ref: res.exchange,
      ...(parsed.ok ? { body: parsed.value } : { jsonError: parsed.error }),
      ...(ussd !== undefined ? { ussd } : {}),
    });
  }
  return {
    scope: scopeOf(ctx.target.baseUrl),
    views,
    links: [],
    frontier: [],
    maxDepthReached: 0,
    durationMs: 0,
    aborted: false,
    options: { maxViews: views.size, maxDepth: 0, concurrency: 1, budgetMs: 0, allowMutations: false },
  };
}
