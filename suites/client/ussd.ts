// Client checks of area ussd: in scenario ussd the client is asked to open GET {base}/ussd/home?customerId={customerId},
// then to choose fixtures.ussdOptions in order, each time requesting the requestUrl of that option of the current view.
//
// What the spec asks of a client is the second half: a follow-up is the option's requestUrl, "Full URL of the follow-up
// request", never one the client builds (client.ussd.given-urls). Where a menu session starts it does not say: it
// documents /ussd/stocks, /ussd/requests and /ussd/assets (customerId their only required parameter) and links
// /ussd/home and /ussd/portfolio (contract not shown). So any of the five, opened bare for the scenario's customer, is a
// start; home is the one the scenario names. Which options a client chooses is its own business: the scenario's route
// is how this run exercises the rule over URLs chosen to show a rebuilt one (client.ussd.route). A client that walks
// elsewhere over given URLs breaks nothing: the route is then not exercised (skipped, so the verdict is INCOMPLETE).
// In observed traffic (`observe`) the given-URL rule is judged from the first start view on, for any customer, a start
// view opened bare beginning a new menu session; the route is the scenario's, not exercised there.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { cite, observedTraffic, scenarioOf, stopWhenBlocked, type ClientRequest, type ScenarioRecord } from './kit.js';
import { envelopeOf, isRecord, named, pathOf, stopWhenUnissued, succeeded } from './traffic.js';

/** The views a walk may start on, opened bare (customerId only): the three documented, and the two they link. */
const START_VIEWS = ['/ussd/home', '/ussd/portfolio', '/ussd/stocks', '/ussd/requests', '/ussd/assets'];
/** How many steps of a walk an observation lists. */
const SHOWN_STEPS = 8;

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

interface Walk {
  /** The scenario's record; absent in observed traffic. */
  record?: ScenarioRecord;
  /** The client's USSD requests, in order. */
  ussd: ClientRequest[];
  /** The scenario's customer; absent in observed traffic, where any customer's start view, bare, starts a walk again. */
  customerId?: string;
}

/** Scenario ussd's USSD requests; a skip when another check's defect cut the flow short. */
function walkOf(ctx: CheckContext): Walk & { record: ScenarioRecord; customerId: string } {
  const record = scenarioOf(ctx, 'ussd');
  stopWhenBlocked(ctx, record.requests);
  stopWhenUnissued(ctx, record);
  return {
    record,
    ussd: record.requests.filter((r) => pathOf(r).startsWith('/ussd/')),
    customerId: String(record.fixtures.customerId),
  };
}

/**
 * A start view of the customer (any customer, when undefined): GET of one of START_VIEWS (`path`, when given) with
 * customerId as its only parameter.
 */
function isStart(r: ClientRequest, customerId: string | undefined, path?: string): boolean {
  const params = [...new URL(r.url).searchParams];
  return (
    r.method === 'GET' &&
    (path === undefined ? START_VIEWS.includes(pathOf(r)) : pathOf(r) === path) &&
    params.length === 1 &&
    params[0]![0] === 'customerId' &&
    (customerId === undefined ? params[0]![1] !== '' : params[0]![1] === customerId)
  );
}

/** `/ussd/home?customerId=1042 → /ussd/portfolio?customerId=1042 → …`: the walk as an observation shows it. */
function steps(ussd: readonly ClientRequest[]): string {
  const shown = ussd.slice(0, SHOWN_STEPS).map((r) => `${r.method === 'GET' ? '' : `${r.method} `}${r.path}`);
  return `${shown.join(' → ')}${ussd.length > SHOWN_STEPS ? ` → … (${ussd.length - SHOWN_STEPS} more)` : ''}`;
}

interface WalkDefect {
  message: string;
  expected: string;
  observed: string;
  request: ClientRequest;
}

/** The first request of the walk that breaks the given-URL rule: a first request that is no start, a URL no view gave. */
function walkDefect({ ussd, record, customerId }: Walk): WalkDefect | undefined {
  const first = ussd[0];
  if (first === undefined) return undefined;
  if (!isStart(first, customerId))
    return {
      message: `${named(first)} is not a start view of customer ${customerId}`,
      expected: `GET of ${START_VIEWS.join(', ')} with only customerId=${customerId} (the scenario names ${record?.baseUrl}/ussd/home?customerId=${customerId})`,
      observed: `${first.method} ${first.url}`,
      request: first,
    };
  const given = new Set<string>();
  for (const r of ussd) {
    const restart = customerId === undefined && isStart(r, undefined);
    if (r !== first && !restart && !given.has(normalised(r.url)))
      return {
        message: `${named(r)} requests a URL no earlier view gave`,
        expected: `one of the requestUrls of the views before it, as given (${given.size} given)`,
        observed: `${r.method} ${r.url}`,
        request: r,
      };
    for (const url of optionsOf(r).values()) given.add(normalised(url));
  }
  return undefined;
}

const givenUrls = defineCheck({
  id: 'client.ussd.given-urls',
  title: 'The client starts on a USSD view and then requests only the requestUrls the views give, exactly',
  level: 'MUST',
  requirements: ['REQ-USSDV-05', 'REQ-USSDV-09'],
  explain: {
    sends:
      "Nothing: reads scenario ussd: the client's GET /ussd/… requests and the views the sandbox answered (ussdOptions[].requestUrl), whatever route the client chose.",
    passes: `The first USSD request opens a view of the scenario's customer bare (GET ${START_VIEWS.join(', ')} with only customerId; the scenario names /ussd/home), and every later one, at least one, is, as a full URL, a requestUrl the sandbox gave in an earlier view. Which options the client chose is not judged here (client.ussd.route).`,
    fails:
      'A USSD URL the client built (another path, parameters added, dropped, reordered or re-encoded, another host), or a first request that is not a start view (another customer, parameters of its own).',
  },
  async run(ctx) {
    const walk = walkOf(ctx);
    if (walk.ussd.length === 0) ctx.skip('the client sent no USSD request: no walk to judge');
    judgeGivenUrls(ctx, walk);
  },
  async observe(ctx) {
    const ussd = observedTraffic(ctx).requests.filter((r) => pathOf(r).startsWith('/ussd/'));
    // A follow-up before the first start view came from a view the traffic does not hold: it cannot be judged.
    const from = ussd.findIndex((r) => isStart(r, undefined));
    if (from < 0)
      ctx.skip(
        `the traffic holds no USSD start view (GET of ${START_VIEWS.join(', ')} with only customerId): no walk whose URLs it shows given`,
      );
    judgeGivenUrls(ctx, { ussd: ussd.slice(from) });
  },
});

function judgeGivenUrls(ctx: CheckContext, walk: Walk): void {
  const { ussd } = walk;
  const defect = walkDefect(walk);
  if (defect !== undefined) {
    const { message, request, ...finding } = defect;
    ctx.fail(message, { ...finding, exchange: cite(ctx, request) });
  }
  if (ussd.length === 1)
    ctx.skip(`the client opened ${ussd[0]!.path} and followed no option: no follow-up URL to judge`);
  ctx.judged('a USSD request', ussd.length);
  ctx.observe(`${ussd.length - 1} follow-up request(s), each a requestUrl an earlier view gave: ${steps(ussd)}`);
}

const route = defineCheck({
  id: 'client.ussd.route',
  title: "The scenario's route: from the home view, each option of fixtures.ussdOptions by the requestUrl it gives",
  level: 'MUST',
  requirements: ['REQ-USSDV-04', 'REQ-USSDV-05'],
  explain: {
    sends:
      "Nothing: reads scenario ussd: the client's GET /ussd/… requests, the views the sandbox answered, and how the command ended.",
    passes:
      'From GET /ussd/home?customerId={customerId}, the client requested, view after view, the requestUrl of each option of fixtures.ussdOptions (by its number, ussdOptions[].option), as given, each answered 2xx: the route was walked (what it did after is its own). A client that walked elsewhere is not judged: this check skips, its requirements are not exercised, and the verdict is INCOMPLETE, never NOT CONFORMANT.',
    fails:
      "The client gave up on the route: it stopped at a view of the route that offers the scenario's next option, sent no USSD request after it, and exited with a failure (it could not find or follow an option the view gives, e.g. it compared the option number as a string). A URL it built is client.ussd.given-urls's failure; this check then skips.",
  },
  async run(ctx) {
    const walk = walkOf(ctx);
    const { ussd, record, customerId } = walk;
    const defect = walkDefect(walk);
    if (defect !== undefined) {
      ctx.alsoSee({
        requirements: ['REQ-USSDV-05'],
        ownedBy: 'client.ussd.given-urls',
        message: defect.message,
        exchange: cite(ctx, defect.request),
      });
      ctx.skip(`the walk broke the given-URL rule (client.ussd.given-urls judges it): ${defect.message}`);
    }
    const chosen = Array.isArray(record.fixtures.ussdOptions) ? record.fixtures.ussdOptions.map(Number) : [];
    const route = `options ${chosen.join(', ')} from /ussd/home`;
    const walked = ussd.length === 0 ? 'no USSD request' : steps(ussd);
    // Where the options lead: from the home view, option by option, through the views the client was answered.
    let index = ussd.findIndex((r) => isStart(r, customerId, '/ussd/home') && succeeded(r));
    const elsewhere = (why: string): never => {
      ctx.observe(`the client's USSD walk: ${walked}; not the scenario's route (${route}): ${why}`);
      return ctx.skip(
        `the client walked a route of its own (${walked}), not the scenario's (${route}): ${why}. Following the route's URLs is not exercised; walk it to be judged on them`,
      );
    };
    if (index < 0) elsewhere(`it never opened /ussd/home?customerId=${customerId}`);
    for (const [step, option] of chosen.entries()) {
      const view = ussd[index]!;
      const url = optionsOf(view).get(option);
      const next =
        url === undefined
          ? -1
          : ussd.findIndex((r, i) => i > index && normalised(r.url) === normalised(url) && succeeded(r));
      if (next >= 0) {
        index = next;
        continue;
      }
      // Stopped at a view of the route that offers the option, and said it failed: it could not follow the option.
      const gaveUp =
        url !== undefined &&
        normalised(ussd.at(-1)!.url) === normalised(view.url) &&
        record.end.endedBy === 'exit' &&
        record.end.code !== 0;
      if (gaveUp)
        ctx.fail(`the client gave up at ${named(view)}, which offers option ${option}`, {
          expected: `GET ${url} (the requestUrl of option ${option}, step ${step + 1} of fixtures.ussdOptions)`,
          observed: `no USSD request after it; the command exited ${String(record.end.code)}${lastLine(record.end.stderrTail)}`,
          exchange: cite(ctx, view),
        });
      elsewhere(
        url === undefined
          ? `the view answered to ${view.path} (${view.status}) offers no option ${option}`
          : `after ${view.path} it did not request option ${option} (${url})`,
      );
    }
    const end = ussd[index]!;
    const after = ussd.length - 1 - index;
    ctx.judged('a step of the route', chosen.length);
    ctx.observe(
      `walked the scenario's route (${route}) to ${end.path}${after > 0 ? `, then ${after} USSD request(s) of its own` : ''}: ${walked}`,
    );
  },
});

/** `; stderr: "…"`: the last line the command wrote to stderr, when any. */
function lastLine(text: string): string {
  const line = text.trim().split('\n').at(-1)?.trim();
  return line ? `; stderr: ${JSON.stringify(line)}` : '';
}

export default defineSuite({
  name: 'client.ussd',
  title: 'Client: ussd',
  checks: [givenUrls, route],
});
