// Area `ussd.links`: every link leads somewhere (alive), back to where it came from, and pages page.
import { defineCheck } from '../../src/engine/index.js';
import { numberedChoices } from './helpers/choices.js';
import { menuName, type Crawl, type CrawlLink, type CrawlView, type SkipReason } from './helpers/crawler.js';
import { differsOnlyInPage, endpointOf, listIdentity, type TargetScope } from './helpers/url.js';
import {
  crawlSummary,
  deadLinks,
  endScreens,
  isEndScreen,
  isMenu,
  menus,
  optionText,
  requestUrlOf,
  whereIs,
  type Problem,
} from './helpers/menu-graph.js';
import { CRAWL_CHECK_TIMEOUT_MS, sharedCrawl } from './helpers/shared-crawl.js';
import { failOn, noViewReason, skipIfNothingFollowed, skipUnjudged } from './helpers/verdicts.js';

/**
 * The options that may be "the last option of a menu": the last of ussdOptions, and the one(s) numbered as the choice
 * shown last in the message (a server may order the array otherwise than the screen). Where an option stands decides,
 * not its number: a "0 Back" shown first, and first in the array, is the first option, and the last one must go back.
 */
export function lastOptionIndexes(view: { ussd?: { message: string; options: unknown[] } }): number[] {
  const options = view.ussd?.options ?? [];
  if (options.length === 0) return [];
  const numbers = options.map((raw) => (raw as { option?: unknown } | null)?.option);
  const out = new Set([options.length - 1]);
  const lastShown = numberedChoices(view.ussd!.message)
    .filter((c) => numbers.includes(c.number))
    .at(-1);
  numbers.forEach((n, i) => {
    if (lastShown && n === lastShown.number) out.add(i);
  });
  return [...out].sort((a, b) => a - b);
}

function linksByView<R>(crawl: Crawl<R>): Map<string, CrawlLink[]> {
  const by = new Map<string, CrawlLink[]>();
  for (const l of crawl.links) {
    const list = by.get(l.from) ?? [];
    list.push(l);
    by.set(l.from, list);
  }
  return by;
}

function isHome<R>(view: CrawlView<R>, scope: TargetScope): boolean {
  return endpointOf(new URL(view.url), scope) === 'home';
}

/**
 * Whether a link from `view` leads to the view itself: the same URL in any parameter order, or (when only `page`
 * differs) a page showing the same content, as `page=0` and no `page` may well be.
 */
function isSameView<R>(crawl: Crawl<R>, view: CrawlView<R>, link: CrawlLink): boolean {
  if (link.key === view.key) return true;
  if (!link.url || !differsOnlyInPage(new URL(view.url), new URL(link.url))) return false;
  const target = link.key === undefined ? undefined : crawl.views.get(link.key);
  return isMenu(target) && isMenu(view) && target.ussd.message === view.ussd.message;
}

/**
 * For a link to another page of the same list (only `page` differs), the page values of the view and of the target
 * (no `page` is 0); undefined for any other link, or a page value that is no number.
 */
function pageOrder(view: URL, to: URL): { from: number; to: number } | undefined {
  if (!differsOnlyInPage(view, to)) return undefined;
  const from = Number(view.searchParams.get('page') ?? 0);
  const target = Number(to.searchParams.get('page') ?? 0);
  return Number.isFinite(from) && Number.isFinite(target) ? { from, to: target } : undefined;
}

/** Links the crawl could not place below {base_url}: where they lead is unknown, so no rule on it can judge them. */
const UNPLACED: ReadonlySet<SkipReason> = new Set(['foreign-origin', 'outside-ussd', 'invalid-url']);

/** A link whose target the rules on where links lead can judge: a URL placed below {base_url}. */
function judgeable(link: CrawlLink | undefined): link is CrawlLink & { url: string; key: string } {
  return (
    link?.url !== undefined && link.key !== undefined && (link.skipped === undefined || !UNPLACED.has(link.skipped))
  );
}

/** Where a last option that does lead back leads: home or portfolio (named by the spec), or another view. */
type WayBack = { root: true } | { root: false; key: string };

/**
 * "The last option of a menu leads back to a parent menu (home, portfolio or another menu)." A parent is another view
 * than the menu itself: a menu on the path here, one that offers this menu, the list it was selected from (on any of
 * its pages), home or portfolio; for a start menu, whose place is not shown, any other USSD view. Another page of the same list is one
 * only if it comes before this page: paging forward ("98 More" last) is no way back. And the ways back must lead
 * somewhere: menus whose last options go round a cycle (A back to B, B back to A) are each the parent of the other,
 * which no menu hierarchy has. Not judged: views without options (END screens, no menus) and /ussd/home (the top: nothing above it).
 */
export function backProblems<R>(
  crawl: Crawl<R>,
  hooks: {
    /** Told of each menu whose last option was judged (it leads to a parent, or the problem says where it leads). */
    judged?: (view: CrawlView<R>) => void;
    /**
     * Told of each menu whose last option leads nowhere the rule can judge: no URL, or one outside {base_url} that
     * names no USSD view. Where it leads is unknown; that the URL is unusable is ussd.options.request-url's failure.
     */
    unjudged?: (view: CrawlView<R>, link: CrawlLink | undefined) => void;
  } = {},
): Array<Problem<R>> {
  const byView = linksByView(crawl);
  const offeredBy = offeringLists(crawl, byView);
  const problems: Array<Problem<R>> = [];
  /** The menus judged, each with where its last option(s) that lead to a parent go. */
  const ways = new Map<string, WayBack[]>();
  for (const view of menus(crawl)) {
    if (isEndScreen(view) || isHome(view, crawl.scope)) continue;
    const links = byView.get(view.key) ?? [];
    const candidates = lastOptionIndexes(view).filter((i) => judgeable(links.find((x) => x.index === i)));
    if (candidates.length === 0) {
      hooks.unjudged?.(
        view,
        links.find((x) => x.index === lastOptionIndexes(view).at(-1)),
      );
      continue;
    }
    const leads = candidates.map((i) =>
      lastOptionLeads(
        crawl,
        view,
        links.find((x) => x.index === i),
        offeredBy,
      ),
    );
    const found = leads.flatMap((lead) => (typeof lead === 'object' ? [lead.way] : []));
    hooks.judged?.(view);
    if (found.length > 0) ways.set(view.key, found);
    else problems.push(noWayBack(crawl, view, links, candidates.at(-1)!, leads));
  }
  problems.push(...backCycles(crawl, ways));
  return problems;
}

/**
 * For each view, the lists that offer it among their choices: its parents. A menu's own way back does not make it one,
 * nor does a link to itself. Parents are lists, named whatever their page (listIdentity): a paged list is the parent on
 * any of its pages.
 */
function offeringLists<R>(crawl: Crawl<R>, byView: ReturnType<typeof linksByView>): Map<string, Set<string>> {
  const offeredBy = new Map<string, Set<string>>();
  for (const view of menus(crawl)) {
    const last = new Set(lastOptionIndexes(view));
    const list = listIdentity(view.url);
    for (const l of byView.get(view.key) ?? []) {
      if (last.has(l.index) || l.key === undefined || l.key === view.key) continue;
      const set = offeredBy.get(l.key) ?? new Set<string>();
      set.add(list);
      offeredBy.set(l.key, set);
    }
  }
  return offeredBy;
}

/** Where one last option leads, for the rule: a way back, this same view, a later page of this list, or no parent. */
type LastOptionLeads = { way: WayBack } | 'self' | 'forward' | 'elsewhere';

function lastOptionLeads<R>(
  crawl: Crawl<R>,
  view: CrawlView<R>,
  l: CrawlLink | undefined,
  offeredBy: Map<string, Set<string>>,
): LastOptionLeads {
  if (!l?.url || l.key === undefined) return 'elsewhere';
  if (isSameView(crawl, view, l)) return 'self';
  const u = new URL(l.url);
  const endpoint = endpointOf(u, crawl.scope);
  if (endpoint === 'home' || endpoint === 'portfolio') return { way: { root: true } };
  // Another page of the same list is above this one only if it comes before it (a Back to the previous page, as
  // ExUssd's BACK goes to the previous chunk); a later page ("98 More") is forward, whatever the crawl's path was
  // or the Previous that page offers. Earlier means a smaller page, whether page counts pages or items.
  const pages = pageOrder(new URL(view.url), u);
  if (pages !== undefined) return pages.to < pages.from ? { way: { root: false, key: l.key } } : 'forward';
  // A paged list is the parent on any of its pages: a request placed by the crawl may sit on a page the crawl
  // read before it existed, or on another page than the one the crawl came through, and Back may lead to the page
  // that holds it, or to the first.
  const list = listIdentity(u);
  const parent =
    view.ancestors.some((k) => listIdentity(k) === list) ||
    (offeredBy.get(view.key)?.has(list) ?? false) ||
    // The menu this one was selected from, by its URL: the same endpoint with some of its parameters dropped (a
    // list for a detail), whatever page of it. This holds even when the crawl's copy of that list predates an
    // order the crawl placed.
    isNarrowing(withoutPage(view.url), withoutPage(u)) ||
    // Which menu is above a start menu is not shown; any other USSD view will do.
    (view.steps.length === 0 && endpoint !== undefined);
  return parent ? { way: { root: false, key: l.key } } : 'elsewhere';
}

/** The problem of a menu none of whose last options leads back, said by where its last one leads. */
function noWayBack<R>(
  crawl: Crawl<R>,
  view: ReturnType<typeof menus<R>>[number],
  links: readonly CrawlLink[],
  index: number,
  leads: readonly LastOptionLeads[],
): Problem<R> {
  const url = JSON.stringify(requestUrlOf(view.ussd.options[index]));
  const l = links.find((x) => x.index === index);
  if (leads.every((lead) => lead === 'self'))
    return {
      view,
      message: `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}, this same view${
        l?.key === view.key ? '' : ' (another page of it, with the same content)'
      }: a menu is not its own parent, and the user is left where they are`,
    };
  const target = l?.key ? crawl.views.get(l.key) : undefined;
  if (leads.at(-1) === 'forward') {
    const pages = pageOrder(new URL(view.url), new URL(l!.url!))!;
    return {
      view,
      message: `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}, a later page of this list (page ${pages.to} after ${pages.from}): paging forward is no way back`,
      ...(target ? { also: [target] } : {}),
    };
  }
  const path = view.ancestors.map((k) => `"${menuName(crawl.views.get(k))}"`).join(', ');
  return {
    view,
    message:
      `${whereIs(view)}: the last option, ${optionText(view, index)}, leads to ${url}` +
      `${target ? ` (menu "${menuName(target)}")` : ''}, which is not a menu on the path here${path ? ` (${path})` : ''}, not a menu that offers this one, and not home or portfolio`,
    ...(target ? { also: [target] } : {}),
  };
}

/**
 * Menus whose ways back go round a cycle: each leads back only to menus that lead back, in the end, to itself, never
 * reaching home, portfolio, or a view the rule does not judge (not visited, an END screen, a menu whose own way back
 * failed). One problem per cycle, named by its first menu in crawl order; menus that merely lead into a cycle are fine.
 */
function backCycles<R>(crawl: Crawl<R>, ways: Map<string, WayBack[]>): Array<Problem<R>> {
  // Reached backwards from what is not in a cycle, over the ways back: what is left over can only go round.
  const leadsHere = new Map<string, string[]>();
  const out: string[] = [];
  for (const [key, targets] of ways) {
    if (targets.some((t) => t.root || !ways.has(t.key))) out.push(key);
    for (const t of targets) {
      if (t.root) continue;
      const from = leadsHere.get(t.key);
      if (from) from.push(key);
      else leadsHere.set(t.key, [key]);
    }
  }
  const escapes = new Set(out);
  while (out.length > 0)
    for (const from of leadsHere.get(out.pop()!) ?? [])
      if (!escapes.has(from)) {
        escapes.add(from);
        out.push(from);
      }
  const order = new Map([...crawl.views.keys()].map((k, i) => [k, i]));
  const done = new Set<string>();
  const problems: Array<Problem<R>> = [];
  for (const start of ways.keys()) {
    if (escapes.has(start) || done.has(start)) continue;
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let at = start;
    while (!onPath.has(at) && !done.has(at)) {
      onPath.set(at, path.length);
      path.push(at);
      // Every way back of a menu left over leads to another one left over.
      at = (ways.get(at)!.find((t) => !t.root) as { key: string }).key;
    }
    for (const k of path) done.add(k);
    if (!onPath.has(at)) continue; // it leads into a cycle found before
    const ring = path.slice(onPath.get(at));
    const first = ring.reduce((a, b) => (order.get(a)! <= order.get(b)! ? a : b));
    const cycle = [...ring.slice(ring.indexOf(first)), ...ring.slice(0, ring.indexOf(first)), first];
    const views = cycle.map((k) => crawl.views.get(k)!);
    const [head, next] = views as [CrawlView<R>, CrawlView<R>];
    problems.push({
      view: head,
      message:
        `${whereIs(head)}: the last option leads back to "${menuName(next)}", and the ways back go round ${ring.length} menus ` +
        `(${views.map((v) => `"${menuName(v)}"`).join(' → ')}) and never reach home, portfolio or a menu above them`,
      also: views.slice(1, -1),
    });
  }
  return problems;
}

/** What links.back does not judge, and why: /ussd/home (the top menu) and views without options (END screens). */
export function backNotJudged<R>(crawl: Crawl<R>): string[] {
  const notes: string[] = [];
  const home = menus(crawl).find((v) => isHome(v, crawl.scope) && !isEndScreen(v));
  if (home) {
    const last = lastOptionIndexes(home).at(-1)!;
    notes.push(
      `${whereIs(home)} is the top menu: its last option, ${optionText(home, last)} → ${JSON.stringify(requestUrlOf(home.ussd?.options[last]))}, is not judged (no menu is above it)`,
    );
  }
  const ends = endScreens(crawl);
  if (ends.length > 0)
    notes.push(
      `${ends.length} view${ends.length === 1 ? '' : 's'} without options (END screens, no menus): no way back to judge, e.g. ${whereIs(ends[0]!)}`,
    );
  return notes;
}

/** The URL without its `page` parameter. */
function withoutPage(url: string | URL): URL {
  const u = new URL(url);
  u.searchParams.delete('page');
  return u;
}

/** Whether `child` is `parent` with parameters added: same origin and path, and every parameter of `parent` kept. */
export function isNarrowing(child: URL, parent: URL): boolean {
  if (child.origin !== parent.origin || child.pathname !== parent.pathname) return false;
  const kept = [...child.searchParams].map(([k, v]) => `${k}=${v}`);
  const parentPairs = [...parent.searchParams].map(([k, v]) => `${k}=${v}`);
  return parentPairs.length < kept.length && parentPairs.every((p) => kept.includes(p));
}

/**
 * Paging links (only `page` differs) that show the same content, and options that lead to the view itself. The last
 * option is links.back's: leading to the view itself, it fails there (a menu is not its own parent), not twice.
 */
export function pagingProblems<R>(
  crawl: Crawl<R>,
  /** Told of each option judged: every option but the last whose URL is known, a paging one compared with its page. */
  judged?: (link: CrawlLink) => void,
): Array<Problem<R>> {
  const byView = linksByView(crawl);
  const problems: Array<Problem<R>> = [];
  for (const view of menus(crawl)) {
    const last = new Set(lastOptionIndexes(view));
    for (const l of byView.get(view.key) ?? []) {
      if (!judgeable(l) || last.has(l.index)) continue;
      judged?.(l);
      if (l.key === view.key) {
        problems.push({
          view,
          message: `${whereIs(view)}: ${optionText(view, l.index)} leads to this same view (${l.url})`,
        });
        continue;
      }
      if (!differsOnlyInPage(new URL(view.url), new URL(l.url))) continue;
      const target = crawl.views.get(l.key);
      if (isMenu(target) && target.ussd.message === view.ussd.message) {
        problems.push({
          view,
          message: `${whereIs(view)}: ${optionText(view, l.index)} → ${l.url} shows the same content as this page`,
          also: [target],
        });
      }
    }
  }
  return problems;
}

export const linksChecks = [
  defineCheck({
    id: 'ussd.links.alive',
    title:
      'Every start menu and every option followed answers 200 with a USSD view (a dead link names the menu, option and path)',
    level: 'MUST',
    requirements: [
      'REQ-USSDV-05',
      'REQ-USSDV-09',
      'REQ-USSD-01',
      'REQ-USSD-03',
      'REQ-USSD-09',
      'REQ-USSD-12',
      'REQ-USSD-18',
    ],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes:
        "the server's answers show that every start menu and every option followed answers 200 with a USSD view (a dead link names the menu, option and path)",
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const dead = deadLinks(c);
      for (const n of dead.notes) ctx.observe(n);
      failOn(ctx, dead.problems, 'a dead link', 'every option a user can press leads to a menu: 200 with a USSD view');
      skipIfNothingFollowed(ctx, c, "no option's follow-up was requested, so none could be found dead or alive");
      // Each start menu the spec defines, and each option followed, answered a USSD view: the subjects.
      const starts = [...c.views.values()].filter((v) => v.steps.length === 0 && !v.optionalStart).length;
      if (starts > 0) ctx.judged('start menu', starts);
      const followed = c.links.filter((l) => !l.skipped).length;
      if (followed > 0) ctx.judged('option followed', followed);
      skipUnjudged(ctx, `no start menu was requested and no option followed (${crawlSummary(c).join('; ')})`);
    },
  }),
  defineCheck({
    id: 'ussd.links.back',
    title:
      'The last option of every menu leads back to a parent menu (another menu on the path here, one that offers this menu, an earlier page, home or portfolio; never the menu itself, a later page, nor round a cycle)',
    level: 'MUST',
    requirements: ['REQ-USSDV-08'],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes:
        "the server's answers show that the last option of every menu leads back to a parent menu: another menu on the path here, one that offers this menu (a paged list on any of its pages), an earlier page of the same list, home or portfolio (for a start menu, any other USSD view; never a later page), and that the ways back do not go round a cycle; a view without options (an END screen) is no menu, /ussd/home, the top menu, is not judged, and nor is a last option whose URL leads outside {base_url} to no USSD view (ussd.options.request-url fails it)",
      fails:
        'a last option that leads forward (a later page of the same list included, "98 More" last), or to the menu itself (the same URL in any parameter order, or another page of it with the same content), or menus whose ways back lead to each other and never reach home or portfolio: the check fails, naming the menu by its path of options and showing the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      for (const note of backNotJudged(c)) ctx.observe(note);
      const unplaced: string[] = [];
      const problems = backProblems(c, {
        judged: (view) => ctx.judged(`last option of GET ${view.url}`),
        unjudged: (view, link) => unplaced.push(`${whereIs(view)} → ${JSON.stringify(link?.requestUrl)}`),
      });
      if (unplaced.length > 0)
        ctx.observe(
          `${unplaced.length} menu${unplaced.length === 1 ? '' : 's'} whose last option leads outside {base_url} to no USSD view, not judged (where it leads is unknown; the URL is ussd.options.request-url's): ${unplaced.slice(0, 3).join('; ')}${unplaced.length > 3 ? '; …' : ''}`,
        );
      failOn(
        ctx,
        problems,
        'a menu without a way back',
        'the last option leads to another menu: one on the path from the start menu, one that offers this one, /ussd/home or /ussd/portfolio; and following the ways back leaves every cycle',
      );
      skipUnjudged(
        ctx,
        menus(c).length === 0
          ? noViewReason(c)
          : `none of the ${menus(c).length} views seen is a menu with a way back to judge (${[...backNotJudged(c), ...(unplaced.length > 0 ? [`${unplaced.length} menus whose last option leads outside {base_url} to no USSD view`] : [])].join('; ') || 'no options'})`,
      );
    },
  }),
  defineCheck({
    id: 'ussd.links.paging',
    title:
      'Paging options (page=) lead to another page of content, and no option but the last (ussd.links.back judges it) leads to the view it is on',
    level: 'SHOULD',
    requirements: ['REQ-USSD-23'],
    explain: {
      sends:
        'GET /ussd/stocks, /ussd/requests and /ussd/assets for the fixture customer, then every option URL the crawler reaches (never one that places or cancels an order without --allow-mutations)',
      passes:
        "the server's answers show that paging options (page=) lead to another page of content, and no option but the last leads to the view it is on",
      fails:
        'any answer that does not (the check warns); the report names the field, status or item that differs and shows the exchange',
    },
    timeoutMs: CRAWL_CHECK_TIMEOUT_MS,
    async run(ctx) {
      const c = await sharedCrawl(ctx);
      const problems = pagingProblems(c, (l) => ctx.judged(`option ${String(l.option)} of ${l.from}`));
      failOn(
        ctx,
        problems,
        'paging that does not move',
        'an option that changes page shows a different page; an option other than the last (the way back, judged by ussd.links.back) leads somewhere else',
      );
      skipIfNothingFollowed(ctx, c, 'no page was reached by an option, so no paging could be seen to move');
      skipUnjudged(
        ctx,
        menus(c).length === 0
          ? noViewReason(c)
          : `no menu of the ${menus(c).length} seen offers an option besides its last: there is no paging or choice to judge`,
      );
    },
  }),
];
