// The run's one crawl of the menu graph, shared by every check of the suite: the suite's state and settings, and how
// a check asks for the crawl (started by whichever check asks first).
import { type CheckContext } from '../../../src/engine/index.js';
import { TransportError, type Exchange } from '../../kit/index.js';
import { crawl, type Crawl, type CrawlStart, type FetchOutcome } from './crawler.js';

export type UssdCrawl = Crawl<Exchange>;

/** The crawl's own time budget stays well inside this, so a slow server yields a partial crawl and a warning. */
export const CRAWL_CHECK_TIMEOUT_MS = 90_000;

/** The suite's state in one run: the crawl every check reads, started by whichever check asks first. */
interface UssdState {
  crawl?: Promise<UssdCrawl>;
}

/** Caps of the crawl: far above any menu tree a phone user walks, low enough to end on a graph without end. */
export const lifecycle = {
  options: {
    maxViews: { default: 500, description: 'views the USSD crawl visits at most (--ussd-max-views)' },
    maxDepth: {
      default: 12,
      description: 'options the USSD crawl presses from a start menu at most (--ussd-max-depth)',
    },
  },
  setup: (): UssdState => ({}),
};

const stateOf = (ctx: CheckContext) => ctx.state as UssdState;

export function ussdUrl(ctx: CheckContext, endpoint: string, query: Record<string, string | number>): string {
  const u = new URL(`${ctx.target.baseUrl}/ussd/${endpoint}`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
  return u.href;
}

async function fetchView(ctx: CheckContext, url: string): Promise<FetchOutcome<Exchange>> {
  try {
    const res = await ctx.send({ method: 'GET', path: url });
    return { status: res.status, text: res.text, ref: res.exchange };
  } catch (e) {
    if (e instanceof TransportError) return { error: e.message, ref: e.exchange };
    throw e;
  }
}

/**
 * The run's crawl, started by whichever check asks first. A crawl that broke, or that was stopped with the check that
 * ran it (its time limit), is not everyone's verdict: it is dropped and the asking check crawls afresh.
 */
export async function sharedCrawl(ctx: CheckContext): Promise<UssdCrawl> {
  const customerId = ctx.fixture('customerId');
  for (;;) {
    // A check past its time limit runs on unobserved; it must not start a crawl that its stopped signal would cut short.
    if (ctx.signal.aborted) throw new Error('the check was stopped before the crawl');
    const st = stateOf(ctx);
    let pending = st.crawl;
    const mine = pending === undefined;
    if (!pending) {
      pending = runCrawl(ctx, customerId);
      st.crawl = pending;
    }
    const drop = () => {
      if (st.crawl === pending) delete st.crawl;
    };
    let c: UssdCrawl;
    try {
      c = await pending;
    } catch (e) {
      drop();
      throw e;
    }
    if (!c.aborted) return c;
    drop();
    if (mine) return c;
  }
}

async function runCrawl(ctx: CheckContext, customerId: number): Promise<UssdCrawl> {
  const starts: CrawlStart[] = [
    { name: 'stocks', url: ussdUrl(ctx, 'stocks', { customerId }) },
    { name: 'assets', url: ussdUrl(ctx, 'assets', { customerId }) },
    { name: 'requests', url: ussdUrl(ctx, 'requests', { customerId }) },
    { name: 'home', url: ussdUrl(ctx, 'home', { customerId }), optional: true },
    { name: 'portfolio', url: ussdUrl(ctx, 'portfolio', { customerId }), optional: true },
  ];
  const sent = new Set<Exchange>();
  try {
    return await crawl<Exchange>({
      baseUrl: ctx.target.baseUrl,
      starts,
      maxViews: ctx.options.maxViews!,
      maxDepth: ctx.options.maxDepth!,
      allowMutations: ctx.flags.allowMutations,
      signal: ctx.signal,
      fetch: async (url) => {
        const out = await fetchView(ctx, url);
        sent.add(out.ref);
        return out;
      },
    });
  } finally {
    for (let i = ctx.exchanges.length - 1; i >= 0; i--) if (sent.has(ctx.exchanges[i]!)) ctx.exchanges.splice(i, 1);
  }
}
