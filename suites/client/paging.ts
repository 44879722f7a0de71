// Client checks of area paging: in scenario read the client walks every transaction of fixtures.paginationCustomerId.
// "page" is an offset in some unit the spec leaves open (REQ-PAGE-03): a client follows meta.nextPage, never computes a
// page. The sandbox pages by item offsets (page=0, 100, 200), so a client that counts page indices is seen. In
// observed traffic (`observe`) every walk of every list is judged the same way; whether the client read a list to its
// end is not (what it set out to read is its own business there).
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { cite, observedTraffic, scenarioOf, stopWhenBlocked, type ClientRequest, type ScenarioRecord } from './kit.js';
import { envelopeOf, isRecord, named, pathOf, queryParam, stopWhenUnissued } from './traffic.js';

/** The client's GET /transactions of the pagination customer, in order (retries included). */
function transactionRequests(record: ScenarioRecord): ClientRequest[] {
  const customer = String(record.fixtures.paginationCustomerId);
  return record.requests.filter(
    (r) => r.method === 'GET' && pathOf(r) === '/transactions' && queryParam(r, 'customerId') === customer,
  );
}

interface PageStep {
  /** The answer whose meta.nextPage the request should have followed. */
  previous: ClientRequest;
  request: ClientRequest;
  nextPage: unknown;
}

/**
 * Each request for a page after the first, with the last successful answer before it (a retry of a failed request
 * asks for the same page again, and is judged against the same answer); the first that did not ask for that answer's
 * meta.nextPage, if any.
 */
function walk(requests: readonly ClientRequest[]): { steps: PageStep[]; deviation?: PageStep } {
  const steps: PageStep[] = [];
  let previous: ClientRequest | undefined;
  for (const r of requests) {
    if (previous !== undefined) steps.push({ previous, request: r, nextPage: envelopeOf(previous)?.meta?.nextPage });
    if (envelopeOf(r)?.meta !== undefined) previous = r;
  }
  const deviation = steps.find((s) => queryParam(s.request, 'page') !== String(s.nextPage));
  return { steps, ...(deviation ? { deviation } : {}) };
}

/**
 * The walks of observed traffic: the GET requests of each list (one path and query but for page), in order, cut where a
 * walk starts again (no page, or the page the walk started on). Only lists answered with paging meta are walks.
 */
function observedWalks(requests: readonly ClientRequest[]): ClientRequest[][] {
  const lists = new Map<string, ClientRequest[]>();
  for (const r of requests) {
    if (r.method !== 'GET' || !URL.canParse(r.url)) continue;
    const query = [...new URL(r.url).searchParams].filter(([name]) => name !== 'page').sort();
    const key = `${pathOf(r)}?${new URLSearchParams(query).toString()}`;
    lists.set(key, [...(lists.get(key) ?? []), r]);
  }
  const walks: ClientRequest[][] = [];
  for (const list of lists.values()) {
    if (!list.some((r) => envelopeOf(r)?.meta !== undefined)) continue;
    let current: ClientRequest[] = [];
    for (const r of list) {
      const page = queryParam(r, 'page');
      if (current.length > 0 && (page === undefined || page === queryParam(current[0]!, 'page'))) {
        walks.push(current);
        current = [];
      }
      current.push(r);
    }
    walks.push(current);
  }
  return walks;
}

function readScenario(ctx: CheckContext): { record: ScenarioRecord; requests: ClientRequest[] } {
  const record = scenarioOf(ctx, 'read');
  stopWhenBlocked(ctx, record.requests);
  stopWhenUnissued(ctx, record);
  return { record, requests: transactionRequests(record) };
}

const NEXT_PAGE_REQUIREMENTS = ['REQ-META-04', 'REQ-PAGE-01'];

const nextPage = defineCheck({
  id: 'client.paging.next-page',
  title: "The client asks for the next page with the previous answer's meta.nextPage",
  level: 'MUST',
  requirements: NEXT_PAGE_REQUIREMENTS,
  explain: {
    sends:
      "Nothing: reads scenario read, the client's GET /transactions?customerId={paginationCustomerId}… requests and the sandbox's answers (item offsets: page=0, 100, 200).",
    passes:
      'Every request for a page after the first carries page = meta.nextPage of the last answer before it (a retry after a failed answer asks for the same page again).',
    fails:
      "A request whose page is not the previous answer's meta.nextPage: page=1 after the first page (a page index where the server gave an offset), a page computed from limit, or no page at all.",
  },
  async run(ctx) {
    const { requests } = readScenario(ctx);
    judgeNextPage(
      ctx,
      [requests],
      'the client asked for no transactions page after the first (client.paging.complete judges a walk that stopped early)',
    );
  },
  async observe(ctx) {
    judgeNextPage(
      ctx,
      observedWalks(observedTraffic(ctx).requests),
      'the traffic holds no request for a page after the first of a list',
    );
  },
});

/** Every walk's page requests after the first; fails on the first (in the client's order) that did not follow meta.nextPage. */
function judgeNextPage(ctx: CheckContext, walks: ReadonlyArray<readonly ClientRequest[]>, nothing: string): void {
  const walked = walks.map(walk);
  const steps = walked.flatMap((w) => w.steps);
  if (steps.length === 0) ctx.skip(nothing);
  const deviation = walked
    .flatMap((w) => (w.deviation ? [w.deviation] : []))
    .sort((a, b) => a.request.seq - b.request.seq)[0];
  if (deviation === undefined) return ctx.judged('a page request', steps.length);
  cite(ctx, deviation.previous);
  ctx.fail(`${named(deviation.request)} did not follow meta.nextPage of ${named(deviation.previous)}`, {
    expected: `page=${String(deviation.nextPage)} (meta.nextPage of the answer to ${deviation.previous.path})`,
    observed: `page=${queryParam(deviation.request, 'page') ?? '(none)'} in ${deviation.request.path}`,
    exchange: cite(ctx, deviation.request),
  });
}

const complete = defineCheck({
  id: 'client.paging.complete',
  title: 'The client reads every transaction of the list, not stopping early',
  level: 'MUST',
  requirements: ['REQ-META-07'],
  explain: {
    sends:
      'Nothing: reads scenario read, the transactions of fixtures.paginationCustomerId the sandbox returned to the client (250, in pages of 100).',
    passes:
      'The distinct transactionIds in the answers the client received number meta.totalCount: it walked to the end of the list.',
    fails:
      "The client stopped before the end (after the first page, or one page short), or never asked for the transactions. When it missed items because it did not follow meta.nextPage, that is client.paging.next-page's failure and this check records it.",
  },
  async run(ctx) {
    const { record, requests } = readScenario(ctx);
    const answers = requests.filter((r) => envelopeOf(r)?.meta !== undefined);
    if (answers.length === 0)
      ctx.fail(`the client read no transactions of customer ${String(record.fixtures.paginationCustomerId)}`, {
        expected: `GET /transactions?customerId=${String(record.fixtures.paginationCustomerId)}, then each meta.nextPage to the end`,
        observed:
          requests.length === 0
            ? 'no such request'
            : `${requests.length} request(s), none answered with a list: ${requests.map((r) => r.status).join(', ')}`,
        ...(requests[0] ? { exchange: cite(ctx, requests[0]) } : {}),
      });
    const ids = new Set<string>();
    for (const r of answers) {
      const data = envelopeOf(r)?.data;
      if (Array.isArray(data))
        for (const item of data)
          if (isRecord(item) && item.transactionId !== undefined) ids.add(String(item.transactionId));
    }
    const totalCount = Math.max(...answers.map((r) => Number(envelopeOf(r)?.meta?.totalCount ?? 0)));
    if (ids.size >= totalCount) return ctx.judged('a transactions page', answers.length);
    const last = answers.at(-1)!;
    const { deviation } = walk(requests);
    ctx.fail(`the client read ${ids.size} of the ${totalCount} transactions and stopped`, {
      expected: `every transaction: ${totalCount} distinct transactionIds (meta.totalCount), following meta.nextPage to the end`,
      observed: `${ids.size} distinct transactionIds in ${answers.length} answer(s); the last, to ${last.path}, gave meta.nextPage=${String(envelopeOf(last)?.meta?.nextPage)}`,
      exchange: cite(ctx, last),
      // A walk that did not follow nextPage reads other items than the list's: that is the owner's defect.
      ...(deviation ? { cause: { ownedBy: 'client.paging.next-page', requirements: NEXT_PAGE_REQUIREMENTS } } : {}),
    });
  },
});

export default defineSuite({
  name: 'client.paging',
  title: 'Client: paging',
  checks: [nextPage, complete],
});
