// The USSD views of the reference server: a breadth-first crawl from home in both variants checks every view the way
// the spec describes it ("USSD view"), then the flows that change state (placing and canceling an order request),
// validation, and each USSD fault of the catalog producing its deviation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import type { Choices, VariantName } from '../../src/reference/choices/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSeed, ORDER_STATUSES, ReferenceStore, SeedError } from '../../src/reference/store.js';
import {
  newTestClient,
  registrationOf,
  signedFetch,
  signedSession,
  type SignedResponse,
} from '../helpers/signed-fetch.js';

const client = newTestClient('acme');
const CUSTOMER = 1042;
const USSD_PATHS = ['/v1/ussd/home', '/v1/ussd/portfolio', '/v1/ussd/stocks', '/v1/ussd/assets', '/v1/ussd/requests'];
const NOT_FOUND = { code: '404', message: 'Not Found' };

interface Running {
  server: ReferenceServer;
  get(pathOrUrl: string): Promise<SignedResponse>;
  /** Absolute URL of a path relative to /v1. */
  url(path: string): string;
}

async function start(
  options: { variant?: VariantName; faults?: string[]; choices?: Partial<Choices> } = {},
): Promise<Running> {
  const server = await startReferenceServer({ clients: [registrationOf(client)], ...options });
  const session = await signedSession(server.baseUrl, client);
  const url = (path: string) => (path.startsWith('http') ? path : `${server.baseUrl}${path}`);
  return { server, url, get: (p) => session.get(url(p)) };
}

// ---- a crawler and the checks it applies to every view --------------------------------------------------------

interface Option {
  option: number;
  requestUrl: string;
  requestType: string;
}

interface View {
  url: string;
  status: number;
  body: any;
  /** Canonical URLs of the views on the way here from home, home first. */
  ancestors: string[];
}

interface Problem {
  kind: string;
  at: string;
  detail: string;
}

/** Origin + path + query sorted by name: two URLs naming the same view compare equal whatever their parameter order. */
function canonical(url: string): string {
  const u = new URL(url);
  const query = [...u.searchParams].sort(([a], [b]) => a.localeCompare(b));
  return `${u.origin}${u.pathname}?${new URLSearchParams(query).toString()}`;
}

/** The GUIDE's crawler never follows a link that places (amount) or cancels (cancelMode=true) an order. */
function isMutation(url: string): boolean {
  const q = new URL(url).searchParams;
  return q.has('amount') || q.get('cancelMode') === 'true';
}

/** Numbered choices of the message: "1. Buy", "1) Buy", "1 - Buy". */
function choiceLabels(message: string): Map<number, string> {
  const labels = new Map<number, string>();
  for (const line of message.split('\n')) {
    const m = /^\s*(\d+)\s*[.):-]\s*(.+)$/.exec(line);
    if (m) labels.set(Number(m[1]), m[2]!);
  }
  return labels;
}

function optionsOf(view: View): Option[] {
  return (view.body?.data?.ussdOptions ?? []) as Option[];
}

/** Everything the spec's "USSD view" section requires of one view; an empty list for a good one. */
function viewProblems(view: View, origin: string, customerId = CUSTOMER): Problem[] {
  const problems: Problem[] = [];
  const add = (kind: string, detail: string) => problems.push({ kind, at: view.url, detail });
  if (view.status !== 200) {
    add(view.status === 404 ? 'dead-link' : 'status', `status ${view.status}`);
    return problems;
  }
  const { body } = view;
  const data = body?.data;
  if (
    body?.code !== '200' ||
    body?.message !== 'Success' ||
    typeof data?.ussdMessage !== 'string' ||
    !Array.isArray(data?.ussdOptions) ||
    data.ussdOptions.length === 0
  ) {
    add('envelope', JSON.stringify(body).slice(0, 200));
    return problems;
  }
  const message: string = data.ussdMessage;
  const options = optionsOf(view);
  const numbers = options.map((o) => o.option);
  if (new Set(numbers).size !== numbers.length) add('duplicate-option', numbers.join(','));
  const labels = choiceLabels(message);
  for (const o of options) {
    if (!Number.isSafeInteger(o.option)) add('option-integer', String(o.option));
    if (!labels.has(o.option)) add('option-not-in-message', `option ${o.option} in ${JSON.stringify(message)}`);
    if (o.requestType !== 'GET') add('request-type', String(o.requestType));
    if (!/^https?:\/\//.test(o.requestUrl)) {
      add('relative-url', o.requestUrl);
      continue;
    }
    const u = new URL(o.requestUrl);
    if (u.origin !== origin) add('foreign-origin', o.requestUrl);
    if (!USSD_PATHS.includes(u.pathname)) add('not-a-ussd-view', o.requestUrl);
    if (u.searchParams.get('customerId') !== String(customerId)) add('customer-dropped', o.requestUrl);
  }
  // "The last option of a menu leads back to a parent menu (home, portfolio or another menu)."
  const last = options[options.length - 1]!;
  if (/^https?:\/\//.test(last.requestUrl)) {
    const path = new URL(last.requestUrl).pathname;
    const isParent =
      path === '/v1/ussd/home' || path === '/v1/ussd/portfolio' || view.ancestors.includes(canonical(last.requestUrl));
    if (!isParent) add('no-parent', `last option ${last.option} → ${last.requestUrl}`);
  }
  for (const o of options) {
    const label = labels.get(o.option) ?? '';
    if (
      /^(Next|Previous)\b/.test(label) &&
      /^https?:\/\//.test(o.requestUrl) &&
      canonical(o.requestUrl) === canonical(view.url)
    ) {
      add('paging-loop', `${label} → ${o.requestUrl}`);
    }
  }
  return problems;
}

interface Crawl {
  views: Map<string, View>;
  /** Links that would place or cancel an order, not followed, with the view they were found on. */
  mutations: Array<{ url: string; from: View }>;
  problems: Problem[];
}

async function crawl(run: Running, startPath = `/ussd/home?customerId=${CUSTOMER}`, maxViews = 400): Promise<Crawl> {
  const origin = run.server.url;
  const views = new Map<string, View>();
  const mutations: Crawl['mutations'] = [];
  const problems: Problem[] = [];
  const queue: Array<{ url: string; ancestors: string[] }> = [{ url: run.url(startPath), ancestors: [] }];
  const seen = new Set([canonical(queue[0]!.url)]);
  while (queue.length > 0) {
    if (views.size >= maxViews) throw new Error(`crawl passed ${maxViews} views: a link loop?`);
    const next = queue.shift()!;
    const res = await run.get(next.url);
    const view: View = { url: next.url, status: res.status, body: res.body, ancestors: next.ancestors };
    views.set(canonical(next.url), view);
    problems.push(...viewProblems(view, origin));
    if (res.status !== 200) continue;
    for (const o of optionsOf(view)) {
      if (typeof o.requestUrl !== 'string') continue;
      const target = new URL(o.requestUrl, origin).href;
      if (isMutation(target)) {
        mutations.push({ url: target, from: view });
        continue;
      }
      const key = canonical(target);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ url: target, ancestors: [...next.ancestors, canonical(next.url)] });
    }
  }
  // "Next"/"Previous" must show another page of content, not only another URL.
  for (const view of views.values()) {
    const labels = choiceLabels(view.body?.data?.ussdMessage ?? '');
    for (const o of optionsOf(view)) {
      if (!/^(Next|Previous)\b/.test(labels.get(o.option) ?? '')) continue;
      const target = views.get(canonical(new URL(o.requestUrl, origin).href));
      if (target?.status === 200 && target.body.data.ussdMessage === view.body.data.ussdMessage) {
        problems.push({ kind: 'paging-loop', at: view.url, detail: `${o.requestUrl} shows the same page` });
      }
    }
  }
  return { views, mutations, problems };
}

function query(url: string): URLSearchParams {
  return new URL(url).searchParams;
}

function viewsWhere(c: Crawl, path: string, test: (q: URLSearchParams) => boolean = () => true): View[] {
  return [...c.views.values()].filter((v) => new URL(v.url).pathname === `/v1${path}` && test(query(v.url)));
}

/** The option whose numbered line in the message starts with `label`. */
function optionLabelled(body: any, label: string): Option | undefined {
  const labels = choiceLabels(body.data.ussdMessage);
  return (body.data.ussdOptions as Option[]).find((o) => labels.get(o.option)?.startsWith(label));
}

// ---- crawl, both variants ---------------------------------------------------------------------------------------

describe.each(['strict', 'alt'] as const)('USSD views, %s variant', (variant) => {
  let run: Running;
  let result: Crawl;

  beforeAll(async () => {
    run = await start({ variant });
    result = await crawl(run);
  });

  afterAll(async () => {
    await run?.server.close();
  });

  it('reaches every view from home, each a 200 USSD view meeting the spec', () => {
    expect(result.problems).toEqual([]);
    const paths = new Set([...result.views.values()].map((v) => new URL(v.url).pathname));
    expect([...paths].sort()).toEqual([...USSD_PATHS].sort());
    expect(result.views.size).toBeGreaterThan(30);
  });

  it('reaches every mode of every view', () => {
    const c = result;
    expect(viewsWhere(c, '/ussd/stocks', (q) => q.has('page')).length).toBeGreaterThan(0);
    expect(viewsWhere(c, '/ussd/stocks', (q) => q.get('searchMode') === 'true' && !q.has('symbol'))).toHaveLength(1);
    expect(
      viewsWhere(c, '/ussd/stocks', (q) => q.get('searchMode') === 'true' && q.has('symbol')).length,
    ).toBeGreaterThan(0);
    expect(
      viewsWhere(c, '/ussd/stocks', (q) => q.has('symbol') && !q.has('searchMode') && !q.has('inputMode')).length,
    ).toBeGreaterThanOrEqual(5);
    expect(viewsWhere(c, '/ussd/stocks', (q) => q.get('inputMode') === 'true').length).toBeGreaterThan(0);
    expect(
      viewsWhere(c, '/ussd/stocks', (q) => q.has('assetId') && !q.has('inputMode'))
        .map((v) => query(v.url).get('assetId'))
        .sort(),
    ).toEqual(['6001', '6002']);
    expect(viewsWhere(c, '/ussd/assets', (q) => q.get('detail') === 'true').length).toBeGreaterThan(0);
    expect(
      viewsWhere(c, '/ussd/requests', (q) => q.has('status') && !q.has('requestId'))
        .map((v) => query(v.url).get('status'))
        .sort(),
    ).toEqual([...ORDER_STATUSES].sort());
    expect(viewsWhere(c, '/ussd/requests', (q) => q.has('requestId')).length).toBeGreaterThanOrEqual(6);
    // Every preset amount of every prompt, and the cancel of every PENDING request, is offered but not followed.
    expect(c.mutations.some((m) => query(m.url).has('amount'))).toBe(true);
    expect(
      c.mutations.filter((m) => query(m.url).get('cancelMode') === 'true').map((m) => query(m.url).get('requestId')),
    ).toContain('730104');
  });

  it(`numbers choices the ${variant} way, the back choice last`, () => {
    for (const view of result.views.values()) {
      const { ussdMessage, ussdOptions } = view.body.data as { ussdMessage: string; ussdOptions: Option[] };
      const numbers = ussdOptions.map((o) => o.option);
      const lastLine = ussdMessage.split('\n').at(-1)!;
      if (variant === 'strict') {
        expect(numbers, view.url).toEqual(numbers.map((_, i) => i + 1));
        expect(lastLine).toMatch(new RegExp(`^${numbers.length}\\. `));
      } else {
        expect(numbers, view.url).toEqual([...numbers.slice(0, -1).map((_, i) => i + 1), 0]);
        expect(lastLine).toMatch(/^0\) /);
      }
    }
  });

  it('pages the stocks list: Next shows the other stocks, and Previous returns', async () => {
    const first = await run.get(`/ussd/stocks?customerId=${CUSTOMER}`);
    const next = optionLabelled(first.body, 'Next')!;
    expect(next).toBeDefined();
    const second = await run.get(next.requestUrl);
    expect(second.status).toBe(200);
    expect(second.body.data.ussdMessage).toContain('AMZN');
    expect(first.body.data.ussdMessage).not.toContain('AMZN');
    expect(optionLabelled(second.body, 'Next')).toBeUndefined();
    const previous = optionLabelled(second.body, 'Previous')!;
    expect((await run.get(previous.requestUrl)).body.data.ussdMessage).toBe(first.body.data.ussdMessage);
  });

  it('places a PENDING order request from the amount prompt, then cancels it once', async () => {
    run.server.store.reset();
    const prompt = await run.get(`/ussd/stocks?customerId=${CUSTOMER}&inputMode=true&symbol=AAPL`);
    expect(prompt.status).toBe(200);
    const amounts = (prompt.body.data.ussdOptions as Option[]).filter((o) => query(o.requestUrl).has('amount'));
    expect(amounts.map((o) => query(o.requestUrl).get('amount'))).toEqual(['10', '50', '100']);

    const placed = await run.get(amounts[1]!.requestUrl);
    expect(placed.status).toBe(200);
    expect(
      viewProblems(
        { url: amounts[1]!.requestUrl, status: placed.status, body: placed.body, ancestors: [] },
        run.server.url,
      ),
    ).toEqual([]);
    const viewLink = optionLabelled(placed.body, 'View request')!;
    const requestId = Number(query(viewLink.requestUrl).get('requestId'));
    expect(placed.body.data.ussdMessage).toContain(`#${requestId}`);
    expect(run.server.store.getOrderRequest(requestId)).toMatchObject({
      customerId: CUSTOMER,
      symbol: 'AAPL',
      amount: 50,
      currency: 'USD',
      status: 'PENDING',
    });
    expect(requestId).toBeGreaterThan(730160);

    const pending = await run.get(`/ussd/requests?customerId=${CUSTOMER}&status=PENDING`);
    // Newest first: the new request heads the PENDING list.
    expect(query((pending.body.data.ussdOptions as Option[])[0]!.requestUrl).get('requestId')).toBe(String(requestId));

    const detail = await run.get(viewLink.requestUrl);
    expect(detail.body.data.ussdMessage).toContain('PENDING');
    const cancel = optionLabelled(detail.body, 'Cancel')!;
    expect(query(cancel.requestUrl).get('cancelMode')).toBe('true');
    const canceled = await run.get(cancel.requestUrl);
    expect(canceled.status).toBe(200);
    expect(
      viewProblems({ url: cancel.requestUrl, status: 200, body: canceled.body, ancestors: [] }, run.server.url),
    ).toEqual([]);
    expect(run.server.store.getOrderRequest(requestId)!.status).toBe('CANCELED');

    const canceledList = await run.get(`/ussd/requests?customerId=${CUSTOMER}&status=CANCELED`);
    expect(
      (canceledList.body.data.ussdOptions as Option[]).some(
        (o) => query(o.requestUrl).get('requestId') === String(requestId),
      ),
    ).toBe(true);
    const afterDetail = await run.get(viewLink.requestUrl);
    expect(afterDetail.body.data.ussdMessage).toContain('CANCELED');
    expect(optionLabelled(afterDetail.body, 'Cancel')).toBeUndefined();

    const again = await run.get(cancel.requestUrl);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('409');
  });

  it('buys more of an asset from the assets menu', async () => {
    run.server.store.reset();
    const assets = await run.get(`/ussd/assets?customerId=${CUSTOMER}`);
    const first = (assets.body.data.ussdOptions as Option[])[0]!;
    expect(query(first.requestUrl).get('assetId')).toBe('6001');
    const asset = await run.get(first.requestUrl);
    const buyMore = optionLabelled(asset.body, 'Buy more')!;
    const prompt = await run.get(buyMore.requestUrl);
    const ten = (prompt.body.data.ussdOptions as Option[])[0]!;
    expect(query(ten.requestUrl).get('assetId')).toBe('6001');
    expect((await run.get(ten.requestUrl)).status).toBe(200);
    expect(run.server.store.orderRequestsOf(CUSTOMER, 'PENDING').map((r) => [r.symbol, r.amount])).toContainEqual([
      'AAPL',
      10,
    ]);
  });
});

describe('USSD views under ussd-terminal=detail-views', () => {
  let run: Running;

  beforeAll(async () => {
    run = await start({ choices: { ussdTerminal: 'detail-views' } });
  });

  afterAll(async () => {
    await run?.server.close();
  });

  it('ends the session on the details of the assets and on the view a holding opens: text, no options', async () => {
    const assets = await run.get(`/ussd/assets?customerId=${CUSTOMER}`);
    const details = optionLabelled(assets.body, 'Details')!;
    const holding = (assets.body.data.ussdOptions as Option[])[0]!;
    expect(query(holding.requestUrl).get('assetId')).toBe('6001');
    for (const url of [details.requestUrl, holding.requestUrl]) {
      const end = await run.get(url);
      expect(end.status, url).toBe(200);
      expect(end.body.code).toBe('200');
      expect(end.body.data.ussdOptions, url).toEqual([]);
      expect(end.body.data.ussdMessage.split('\n').length, url).toBeGreaterThan(1);
    }
    expect((await run.get(details.requestUrl)).body.data.ussdMessage).toMatch(
      /^My assets - details \(1-2 of 2\)\nAAPL \S+ @ /,
    );
  });

  it('keeps the way back last on every other view', async () => {
    const c = await crawl(run);
    const ends = [...c.views.values()].filter((v) => v.body?.data?.ussdOptions?.length === 0).map((v) => v.url);
    expect(ends.map((u) => new URL(u).search).sort()).toEqual([
      `?customerId=${CUSTOMER}&assetId=6001`,
      `?customerId=${CUSTOMER}&assetId=6002`,
      `?customerId=${CUSTOMER}&detail=true`,
    ]);
    // The reference crawl counts a view without options as a broken envelope: those, and nothing else.
    expect(c.problems.filter((p) => !ends.includes(p.at))).toEqual([]);
  });
});

describe.each([
  ['colon', /^\d+:\S/],
  ['compact', /^\d+\.\S/],
] as const)('USSD views under ussd-numbering=%s', (numbering, style) => {
  let run: Running;

  beforeAll(async () => {
    run = await start({ choices: { ussdNumbering: numbering } });
  });

  afterAll(async () => {
    await run?.server.close();
  });

  it('writes every choice in that style, no space after the separator, and every view still meets the spec', async () => {
    const c = await crawl(run);
    expect(c.problems).toEqual([]);
    for (const view of c.views.values()) {
      const { ussdMessage, ussdOptions } = view.body.data as { ussdMessage: string; ussdOptions: Option[] };
      const lines = ussdMessage.split('\n').slice(-ussdOptions.length);
      expect(
        lines.map((l) => style.test(l)),
        view.url,
      ).toEqual(lines.map(() => true));
      expect(
        lines.map((l) => Number(/^\d+/.exec(l)![0])),
        view.url,
      ).toEqual(ussdOptions.map((o) => o.option));
    }
    const stocks = await run.get(`/ussd/stocks?customerId=${CUSTOMER}`);
    expect(stocks.body.data.ussdMessage).toContain(
      numbering === 'colon' ? '\n1:AAPL Apple Inc.\n' : '\n1.AAPL Apple Inc.\n',
    );
  });
});

describe('USSD views under ussd-back=zero-and-home', () => {
  let run: Running;
  let result: Crawl;

  beforeAll(async () => {
    run = await start({ choices: { ussdBack: 'zero-and-home' } });
    result = await crawl(run);
  });

  afterAll(async () => {
    await run?.server.close();
  });

  it('ends a menu with "0. Back" then "99. Home", or with "0. Back" alone where Back leads home already', () => {
    expect(result.problems).toEqual([]);
    let both = 0;
    for (const view of result.views.values()) {
      const { ussdMessage, ussdOptions } = view.body.data as { ussdMessage: string; ussdOptions: Option[] };
      const last = ussdOptions.at(-1)!;
      const path = (o: Option) => new URL(o.requestUrl).pathname;
      expect(path(last), view.url).toBe('/v1/ussd/home');
      if (last.option === 99) {
        both++;
        const back = ussdOptions.at(-2)!;
        expect(back.option, view.url).toBe(0);
        expect(path(back), view.url).not.toBe('/v1/ussd/home');
        expect(ussdMessage, view.url).toMatch(/\n0\. (Back|Home)\n99\. Home$/);
      } else {
        expect(last.option, view.url).toBe(0);
        expect(
          ussdOptions.filter((o) => o.option === 99),
          view.url,
        ).toEqual([]);
      }
    }
    expect(both).toBeGreaterThan(20);
  });

  it('offers home once on home and on the menus whose Back leads there: no second link to home', async () => {
    for (const path of ['/ussd/home', '/ussd/stocks', '/ussd/portfolio']) {
      const res = await run.get(`${path}?customerId=${CUSTOMER}`);
      const options = res.body.data.ussdOptions as Option[];
      expect(
        options.filter((o) => new URL(o.requestUrl).pathname === '/v1/ussd/home').map((o) => o.option),
        path,
      ).toEqual([0]);
    }
  });
});

describe('USSD views for an unknown customer under ussd-unknown-customer=end-screen', () => {
  it('answers a 200 END screen saying the number is not registered, with no options', async () => {
    const run = await start({ choices: { ussdUnknownCustomer: 'end-screen' } });
    try {
      for (const path of USSD_PATHS.map((p) => p.slice('/v1'.length))) {
        const res = await run.get(`${path}?customerId=999999`);
        expect(res.status, path).toBe(200);
        expect(res.body).toEqual({
          data: {
            ussdMessage: 'Customer 999999 is not registered for this service.\nPlease contact your provider.',
            ussdOptions: [],
          },
          code: '200',
          message: 'Success',
        });
      }
      expect((await run.get(`/ussd/stocks?customerId=${CUSTOMER}`)).body.data.ussdOptions.length).toBeGreaterThan(1);
    } finally {
      await run.server.close();
    }
  });
});

// ---- validation, authentication, seed -------------------------------------------------------------------------

describe('USSD validation', () => {
  let run: Running;

  beforeAll(async () => {
    run = await start();
  });

  afterAll(async () => {
    await run?.server.close();
  });

  it('requires customerId on every view: missing or malformed is a 400, unknown a 404', async () => {
    for (const path of USSD_PATHS.map((p) => p.slice('/v1'.length))) {
      for (const q of [
        '',
        '?customerId=',
        '?customerId=abc',
        '?customerId=01042',
        '?customerId=1042.0',
        '?customerId=1042&customerId=1043',
      ]) {
        const res = await run.get(`${path}${q}`);
        expect(res.status, `${path}${q}`).toBe(400);
        expect(res.body.code).toBe('400');
        expect(typeof res.body.message).toBe('string');
      }
      const unknown = await run.get(`${path}?customerId=999999`);
      expect(unknown.status, path).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND);
    }
  });

  it('refuses an unknown customer with 400 under ussd-unknown-customer=reject-400, with the error body', async () => {
    const other = await start({ choices: { ussdUnknownCustomer: 'reject-400' } });
    try {
      for (const path of USSD_PATHS.map((p) => p.slice('/v1'.length))) {
        const res = await other.get(`${path}?customerId=999999`);
        expect(res.status, path).toBe(400);
        expect(res.body).toEqual({ code: '400', message: 'customerId names no customer' });
      }
      expect((await other.get(`/ussd/stocks?customerId=${CUSTOMER}`)).status).toBe(200);
    } finally {
      await other.server.close();
    }
  });

  it('rejects malformed parameters with 400 before looking anything up', async () => {
    const bad = [
      '/ussd/stocks?customerId=1042&page=-1',
      '/ussd/stocks?customerId=1042&page=x',
      '/ussd/stocks?customerId=1042&searchMode=yes',
      '/ussd/stocks?customerId=1042&searchMode=TRUE',
      '/ussd/stocks?customerId=1042&inputMode=1',
      '/ussd/stocks?customerId=1042&inputMode=true',
      '/ussd/stocks?customerId=1042&symbol=',
      '/ussd/stocks?customerId=1042&symbol=AAPL&amount=50',
      '/ussd/stocks?customerId=1042&inputMode=true&symbol=AAPL&amount=0',
      '/ussd/stocks?customerId=1042&inputMode=true&symbol=AAPL&amount=-5',
      '/ussd/stocks?customerId=1042&inputMode=true&symbol=AAPL&amount=1.5',
      '/ussd/stocks?customerId=1042&inputMode=true&symbol=AAPL&amount=ten',
      '/ussd/stocks?customerId=1042&inputMode=true&searchMode=true&symbol=AAPL',
      '/ussd/stocks?customerId=1042&symbol=AAPL&assetId=6001',
      '/ussd/stocks?customerId=1042&assetId=abc',
      '/ussd/assets?customerId=1042&detail=yes',
      '/ussd/assets?customerId=1042&page=-2',
      '/ussd/requests?customerId=1042&status=pending',
      '/ussd/requests?customerId=1042&status=DONE',
      '/ussd/requests?customerId=1042&cancelMode=true',
      '/ussd/requests?customerId=1042&cancelMode=no&requestId=730104',
      '/ussd/requests?customerId=1042&requestId=x',
      // Validation comes before existence: an unknown customer with a bad parameter is still a 400.
      '/ussd/requests?customerId=999999&status=DONE',
    ];
    for (const path of bad) {
      const res = await run.get(path);
      expect(res.status, path).toBe(400);
    }
    expect(run.server.store.orderRequestsOf(CUSTOMER, 'PENDING')).toHaveLength(2);
  });

  it('answers 404 for what does not exist or belongs to another customer', async () => {
    for (const path of [
      '/ussd/stocks?customerId=1042&symbol=NOPE',
      '/ussd/stocks?customerId=1042&assetId=6010',
      '/ussd/stocks?customerId=1042&assetId=999999',
      '/ussd/stocks?customerId=1042&inputMode=true&assetId=6010&amount=10',
      '/ussd/requests?customerId=1042&requestId=730160',
      '/ussd/requests?customerId=1042&requestId=730160&cancelMode=true',
      '/ussd/requests?customerId=1042&requestId=999999',
    ]) {
      const res = await run.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect(run.server.store.getOrderRequest(730160)!.status).toBe('PENDING');
  });

  it('refuses with 409 what the state forbids: canceling a final request, buying what cannot be bought', async () => {
    for (const path of [
      '/ussd/requests?customerId=1042&requestId=730117&cancelMode=true',
      '/ussd/requests?customerId=1042&requestId=730125&cancelMode=true',
      '/ussd/stocks?customerId=1042&inputMode=true&symbol=TSLA',
      '/ussd/stocks?customerId=3310&inputMode=true&symbol=AAPL&amount=10',
    ]) {
      const res = await run.get(path);
      expect(res.status, path).toBe(409);
      expect(res.body.code).toBe('409');
    }
    expect(run.server.store.getOrderRequest(730117)!.status).toBe('COMPLETED');
    const tsla = await run.get('/ussd/stocks?customerId=1042&symbol=tsla');
    expect(tsla.status).toBe(200);
    expect(tsla.body.data.ussdMessage).toContain('Not available to buy');
    expect(optionLabelled(tsla.body, 'Buy')).toBeUndefined();
  });

  it('requires authentication like every endpoint', async () => {
    const res = await signedFetch({ url: run.url('/ussd/home?customerId=1042'), client });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'TOKEN_MISSING', message: 'Unauthorized' });
  });

  it('builds follow-up URLs on the origin the client addressed (its Host)', async () => {
    const session = await signedSession(run.server.baseUrl, client);
    const res = await signedFetch({
      url: 'http://sandbox.test:8080/v1/ussd/home?customerId=1042',
      client,
      token: session.token,
      via: run.server.url,
    });
    expect(res.status).toBe(200);
    for (const o of res.body.data.ussdOptions as Option[])
      expect(o.requestUrl).toMatch(/^http:\/\/sandbox\.test:8080\/v1\/ussd\/[a-z]+\?customerId=1042(&|$)/);
  });

  it('seeds order requests of customer 1042 in every status, with large non-contiguous ids', () => {
    const requests = run.server.store.orderRequestsOf(CUSTOMER);
    expect(new Set(requests.map((r) => r.status))).toEqual(new Set(ORDER_STATUSES));
    const ids = requests.map((r) => r.requestId).sort((a, b) => a - b);
    expect(ids[0]).toBeGreaterThan(100000);
    expect(ids.some((id, i) => i > 0 && id - ids[i - 1]! > 1)).toBe(true);
  });

  it('checks order requests of a seed: fields and statuses on load, references on start', () => {
    const wrongSymbol = structuredClone(loadSeed());
    wrongSymbol.orderRequests![0]!.symbol = 'XXX';
    expect(() => new ReferenceStore(wrongSymbol)).toThrow(SeedError);
    const dir = mkdtempSync(join(tmpdir(), 'ussd-seed-'));
    try {
      const badStatus = structuredClone(loadSeed()) as any;
      badStatus.orderRequests[0].status = 'DONE';
      writeFileSync(join(dir, 'seed.json'), JSON.stringify(badStatus));
      expect(() => loadSeed(join(dir, 'seed.json'))).toThrow(/orderRequests\[0\]\.status/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- faults -----------------------------------------------------------------------------------------------------

describe('USSD faults produce their deviation', () => {
  async function withFault<T>(fault: string, body: (run: Running) => Promise<T>): Promise<T> {
    const run = await start({ faults: [fault] });
    try {
      return await body(run);
    } finally {
      await run.server.close();
    }
  }

  const kinds = (c: Crawl) => new Set(c.problems.map((p) => p.kind));

  it('ussd.dead-link: a stocks option leads to a 404', async () => {
    await withFault('ussd.dead-link', async (run) => {
      const c = await crawl(run);
      const dead = c.problems.filter((p) => p.kind === 'dead-link');
      expect(dead.length).toBeGreaterThan(0);
      for (const p of dead) expect(new URL(p.at).pathname).toBe('/v1/ussd/stock');
    });
  });

  it('ussd.option-not-in-message: an option number is missing from the message', async () => {
    await withFault('ussd.option-not-in-message', async (run) => {
      const home = await run.get(`/ussd/home?customerId=${CUSTOMER}`);
      expect(
        viewProblems(
          { url: run.url(`/ussd/home?customerId=${CUSTOMER}`), status: 200, body: home.body, ancestors: [] },
          run.server.url,
        ).map((p) => p.kind),
      ).toEqual(['option-not-in-message']);
    });
  });

  it('ussd.no-back-option: the last option of a stock detail leads forward', async () => {
    await withFault('ussd.no-back-option', async (run) => {
      const c = await crawl(run);
      const noParent = c.problems.filter((p) => p.kind === 'no-parent');
      expect(noParent.length).toBeGreaterThan(0);
      for (const p of noParent) expect(query(p.at).has('symbol')).toBe(true);
    });
  });

  it('ussd.relative-url: requestUrl is a relative path', async () => {
    await withFault('ussd.relative-url', async (run) => {
      const home = await run.get(`/ussd/home?customerId=${CUSTOMER}`);
      expect((home.body.data.ussdOptions as Option[])[0]!.requestUrl).toMatch(/^\/v1\/ussd\//);
      expect(
        viewProblems(
          { url: run.url(`/ussd/home?customerId=${CUSTOMER}`), status: 200, body: home.body, ancestors: [] },
          run.server.url,
        ).every((p) => p.kind === 'relative-url'),
      ).toBe(true);
    });
  });

  it('ussd.customer-dropped: a follow-up URL has no customerId, and following it is a 400', async () => {
    await withFault('ussd.customer-dropped', async (run) => {
      const c = await crawl(run);
      expect(kinds(c)).toContain('customer-dropped');
      expect(kinds(c)).toContain('status');
    });
  });

  it('ussd.paging-loop: Next leads to the same page', async () => {
    await withFault('ussd.paging-loop', async (run) => {
      const c = await crawl(run);
      expect(kinds(c)).toEqual(new Set(['paging-loop']));
    });
  });

  it('ussd.missing-customer-accepted: a view without customerId answers 200', async () => {
    await withFault('ussd.missing-customer-accepted', async (run) => {
      for (const path of USSD_PATHS) expect((await run.get(`${run.server.url}${path}`)).status, path).toBe(200);
      expect((await run.get('/ussd/home?customerId=abc')).status).toBe(400);
    });
  });

  it('ussd.status-filter-broken: status=CANCELED answers 500', async () => {
    await withFault('ussd.status-filter-broken', async (run) => {
      expect((await run.get(`/ussd/requests?customerId=${CUSTOMER}&status=CANCELED`)).status).toBe(500);
      expect((await run.get(`/ussd/requests?customerId=${CUSTOMER}&status=PENDING`)).status).toBe(200);
    });
  });

  it('ussd.options-self-loop: every option of every view leads to that view', async () => {
    await withFault('ussd.options-self-loop', async (run) => {
      for (const path of ['/ussd/home', '/ussd/stocks', '/ussd/requests?status=PENDING&']) {
        const url = run.url(`${path}${path.endsWith('&') ? '' : '?'}customerId=${CUSTOMER}`);
        const res = await run.get(url);
        expect(res.status, url).toBe(200);
        const targets = (res.body.data.ussdOptions as Option[]).map((o) => o.requestUrl);
        expect(targets.length, url).toBeGreaterThan(1);
        expect(new Set(targets), url).toEqual(new Set([url]));
      }
    });
  });

  it('ussd.more-listed-last: a list with a next page ends with "98. Next", after Back', async () => {
    await withFault('ussd.more-listed-last', async (run) => {
      const stocks = await run.get(`/ussd/stocks?customerId=${CUSTOMER}`);
      const options = stocks.body.data.ussdOptions as Option[];
      expect(options.map((o) => o.option)).toEqual([1, 2, 3, 4, 5, 98]);
      expect(query(options.at(-1)!.requestUrl).get('page')).toBe('1');
      expect(stocks.body.data.ussdMessage).toMatch(/\n4\. Search\n5\. Back\n98\. Next$/);
      // A page without a next page is as before.
      const last = await run.get(options.at(-1)!.requestUrl);
      expect((last.body.data.ussdOptions as Option[]).map((o) => o.option)).toEqual([1, 2, 3, 4, 5]);
    });
  });

  it("ussd.back-cycle: the first assets page's Back leads to its details, whose Back leads to it", async () => {
    await withFault('ussd.back-cycle', async (run) => {
      const assets = await run.get(`/ussd/assets?customerId=${CUSTOMER}`);
      const back = (assets.body.data.ussdOptions as Option[]).at(-1)!;
      expect(new URL(back.requestUrl).search).toBe(`?customerId=${CUSTOMER}&detail=true`);
      const details = await run.get(back.requestUrl);
      expect(canonical((details.body.data.ussdOptions as Option[]).at(-1)!.requestUrl)).toBe(
        canonical(run.url(`/ussd/assets?customerId=${CUSTOMER}`)),
      );
    });
  });

  it.each([
    ['ussd.status-unknown-ignored', '/ussd/requests?customerId=1042&status=FOO', '/ussd/requests?customerId=1042'],
    ['ussd.page-negative-clamped', '/ussd/requests?customerId=1042&page=-1', '/ussd/requests?customerId=1042'],
    ['ussd.page-not-integer-ignored', '/ussd/assets?customerId=1042&page=x', '/ussd/assets?customerId=1042'],
    ['ussd.request-id-ignored', '/ussd/requests?customerId=1042&requestId=abc', '/ussd/requests?customerId=1042'],
  ])('%s: %s is served as %s', async (fault, bad, as) => {
    await withFault(fault, async (run) => {
      const res = await run.get(bad);
      expect(res.status).toBe(200);
      expect(res.body.data.ussdMessage).toBe((await run.get(as)).body.data.ussdMessage);
      // Only that value: the others of the parameter are still refused.
      expect((await run.get(`${as}&page=-2&status=DONE`)).status).toBe(400);
    });
  });

  it('ussd.duplicate-option-numbers: two options share a number', async () => {
    await withFault('ussd.duplicate-option-numbers', async (run) => {
      const c = await crawl(run);
      expect(kinds(c)).toContain('duplicate-option');
    });
  });
});
