// Client checks of area ussd: in scenario ussd the client opens GET {base}/ussd/home?customerId={customerId}, then
// chooses fixtures.ussdOptions in order, each time requesting the requestUrl of that option of the current view,
// exactly as given ("Full URL of the follow-up request"): it never builds a USSD URL itself.
import { defineCheck, defineSuite } from '../../src/engine/index.js';
import { cite, scenarioOf, stopWhenBlocked, type ClientRequest } from './kit.js';
import { envelopeOf, isRecord, named, pathOf, queryParam, stopWhenUnissued, succeeded } from './traffic.js';

function normalised(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The options of a USSD view the sandbox answered: option number → requestUrl. */
function optionsOf(r: ClientRequest): Map<number, string> {
  const data = envelopeOf(r)?.data;
  const options = isRecord(data) && Array.isArray(data.ussdOptions) ? data.ussdOptions : [];
  return new Map(
    options.flatMap((o) =>
      isRecord(o) && typeof o.option === 'number' && typeof o.requestUrl === 'string' ? [[o.option, o.requestUrl]] : [],
    ),
  );
}

const givenUrls = defineCheck({
  id: 'client.ussd.given-urls',
  title: 'The client follows the requestUrls the USSD views give, exactly, to the view it was asked to reach',
  level: 'MUST',
  requirements: ['REQ-USSDV-05', 'REQ-USSDV-09'],
  explain: {
    sends:
      "Nothing: reads scenario ussd: the client's GET /ussd/… requests and the views the sandbox answered (ussdOptions[].requestUrl).",
    passes:
      "The first USSD request is GET {base}/ussd/home?customerId={customerId}; every later one is, as a full URL, a requestUrl the sandbox gave in an earlier view; and choosing fixtures.ussdOptions in order from the home view leads, view by view, to the client's last USSD request.",
    fails:
      'A USSD URL the client built (another path, parameters added, dropped or re-encoded, another host), a different first view, or a walk that stops short of, or goes past, the view the options lead to.',
  },
  async run(ctx) {
    const record = scenarioOf(ctx, 'ussd');
    stopWhenBlocked(ctx, record.requests);
    stopWhenUnissued(ctx, record);
    const ussd = record.requests.filter((r) => pathOf(r).startsWith('/ussd/'));
    const customerId = String(record.fixtures.customerId);
    const home = `${record.baseUrl}/ussd/home?customerId=${customerId}`;
    const first = ussd[0];
    if (first === undefined)
      return ctx.fail('the client sent no USSD request', {
        expected: `GET ${home}`,
        observed: 'no GET /ussd/… request',
      });
    if (first.method !== 'GET' || pathOf(first) !== '/ussd/home' || queryParam(first, 'customerId') !== customerId)
      return ctx.fail(`${named(first)} is not the home view of customer ${customerId}`, {
        expected: `GET ${home}`,
        observed: `${first.method} ${first.url}`,
        exchange: cite(ctx, first),
      });
    const given = new Set<string>();
    for (const r of ussd) {
      if (r !== first && !given.has(normalised(r.url)))
        ctx.fail(`${named(r)} requests a URL no earlier view gave`, {
          expected: `one of the requestUrls of the views before it (${given.size} given)`,
          observed: `${r.method} ${r.url}`,
          exchange: cite(ctx, r),
        });
      for (const url of optionsOf(r).values()) given.add(normalised(url));
    }
    // Where the options lead: from the home view, option by option, through the views the client was answered.
    const chosen = Array.isArray(record.fixtures.ussdOptions) ? (record.fixtures.ussdOptions as unknown[]) : [];
    let view: ClientRequest = first;
    let index = ussd.indexOf(first);
    for (const option of chosen) {
      const url = optionsOf(view).get(Number(option));
      const next =
        url === undefined
          ? -1
          : ussd.findIndex((r, i) => i > index && normalised(r.url) === normalised(url) && succeeded(r));
      if (url === undefined || next < 0)
        return ctx.fail(`the client did not reach the view option ${String(option)} of ${named(view)} leads to`, {
          expected: url === undefined ? `option ${String(option)} in the view answered to ${view.path}` : `GET ${url}`,
          observed:
            url === undefined
              ? `the view answered to ${view.path} (${view.status}) has options ${[...optionsOf(view).keys()].join(', ') || '(none)'}`
              : `no later request for it; the last USSD request was ${ussd.at(-1)!.url}`,
          exchange: cite(ctx, view),
        });
      view = ussd[next]!;
      index = next;
    }
    const last = ussd.at(-1)!;
    if (last !== view)
      ctx.fail(`the client went on past the view the options lead to: its last USSD request is ${named(last)}`, {
        expected: `the last USSD request GET ${view.url} (options ${chosen.join(', ')})`,
        observed: `${last.method} ${last.url}`,
        exchange: cite(ctx, last),
      });
  },
});

export default defineSuite({
  name: 'client.ussd',
  title: 'Client: ussd',
  checks: [givenUrls],
});
