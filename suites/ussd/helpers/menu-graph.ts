// What the spec's "USSD view" section requires of each view and of the menu graph, as pure functions over a crawl.
// Each returns problems that name where they are the way a phone user would retrace them ("stocks → 2 → 1"), so the
// suite only has to pick the evidence and word the verdict. These are the rules more than one area reads.
import { labelOf } from './choices.js';
import {
  CAP_REASONS,
  SKIP_REASONS,
  formatTrail,
  menuName,
  type Crawl,
  type CrawlLink,
  type CrawlView,
  type SkipReason,
} from './crawler.js';
import { endpointOf, type TargetScope } from './url.js';

export interface Problem<R> {
  /** The view whose response shows the problem. */
  view: CrawlView<R>;
  /** One line: where, then what. */
  message: string;
  /** Other views whose responses belong to the evidence (the target of a link). */
  also?: Array<CrawlView<R>>;
}

/** A view that answered 200 with something shaped like a USSD view. */
export function isMenu<R>(
  view: CrawlView<R> | undefined,
): view is CrawlView<R> & { ussd: NonNullable<CrawlView<R>['ussd']> } {
  return view !== undefined && view.status === 200 && view.ussd !== undefined;
}

export function menus<R>(crawl: Crawl<R>): Array<CrawlView<R> & { ussd: NonNullable<CrawlView<R>['ussd']> }> {
  return [...crawl.views.values()].filter(isMenu);
}

/** "stocks → 2 (menu "AAPL - Apple Inc.")". */
export function whereIs<R>(view: CrawlView<R>): string {
  return `${formatTrail(view.start, view.steps)} (menu "${menuName(view)}")`;
}

export function optionText<R>(view: CrawlView<R>, index: number): string {
  const raw = view.ussd?.options[index] as { option?: unknown } | undefined;
  const label = view.ussd ? labelOf(view.ussd.message, raw?.option) : undefined;
  return `option ${JSON.stringify(raw?.option)}${label ? ` "${label}"` : ''}`;
}

export function requestUrlOf(raw: unknown): unknown {
  return (raw as { requestUrl?: unknown } | null)?.requestUrl;
}

/** How a view that is not a menu answered, in a few words. */
export function answerOf<R>(view: CrawlView<R>): string {
  if (view.error) return `no usable response (${view.error})`;
  if (view.status !== 200) return `answered ${view.status}`;
  if (view.jsonError) return `answered 200 with a body that is not JSON`;
  return 'answered 200 without a USSD view (data.ussdMessage, data.ussdOptions)';
}

/** The link that leads to a view: the one that found it, or for a start the first link that points to it. */
function linkInto<R>(crawl: Crawl<R>, view: CrawlView<R>): { parent: CrawlView<R>; index: number } | undefined {
  const step = view.steps.at(-1);
  if (step) {
    const parent = crawl.views.get(step.from);
    return parent ? { parent, index: step.index } : undefined;
  }
  const link = crawl.links.find((l) => l.key === view.key && !l.skipped);
  const parent = link ? crawl.views.get(link.from) : undefined;
  return parent && link ? { parent, index: link.index } : undefined;
}

interface DeadLinks<R> {
  problems: Array<Problem<R>>;
  /** Start menus the spec does not define that did not answer, and that no option leads to; links to a home or portfolio the server does not serve. */
  notes: string[];
}

/**
 * How a server says it does not serve /ussd/home or /ussd/portfolio ("Contract … not shown": menus may link to them
 * and another system serve them, REQ-USSD-22): the path is unknown (404, 410), the method not offered (405), or
 * nothing is implemented there (501).
 */
const NOT_SERVED_STATUSES: ReadonlySet<number> = new Set([404, 405, 410, 501]);

/** A view of /ussd/home or /ussd/portfolio that the server does not serve, by its status. */
export function notServedContract<R>(view: CrawlView<R>, scope: TargetScope): 'home' | 'portfolio' | undefined {
  const endpoint = endpointOf(new URL(view.url), scope);
  return (endpoint === 'home' || endpoint === 'portfolio') &&
    view.status !== undefined &&
    NOT_SERVED_STATUSES.has(view.status)
    ? endpoint
    : undefined;
}

/** Every start menu and every followed link answers 200 with a USSD view. */
export function deadLinks<R>(crawl: Crawl<R>): DeadLinks<R> {
  const out: DeadLinks<R> = { problems: [], notes: [] };
  for (const view of crawl.views.values()) {
    if (isMenu(view)) continue;
    const into = linkInto(crawl, view);
    const count = crawl.links.filter((l) => l.key === view.key && !l.skipped).length;
    if (!into) {
      if (view.optionalStart)
        out.notes.push(
          `${view.start} (GET ${view.url}) ${answerOf(view)}; no option leads there, and its contract is not shown`,
        );
      else out.problems.push({ view, message: `start menu ${view.start}: GET ${view.url} ${answerOf(view)}` });
      continue;
    }
    const unserved = notServedContract(view, crawl.scope);
    if (unserved) {
      out.notes.push(
        `/ussd/${unserved} (GET ${view.url}) answered ${view.status}: not served, only linked (its contract is not shown); ${count} option${count === 1 ? '' : 's'} lead${count === 1 ? 's' : ''} there`,
      );
      continue;
    }
    const trail = formatTrail(into.parent.start, [
      ...into.parent.steps,
      {
        from: into.parent.key,
        option: (into.parent.ussd?.options[into.index] as { option?: unknown })?.option,
        index: into.index,
      },
    ]);
    out.problems.push({
      view,
      message: `${trail}: ${optionText(into.parent, into.index)} of menu "${menuName(into.parent)}" → GET ${view.url} ${answerOf(view)}${count > 1 ? ` (${count} options lead there)` : ''}`,
      also: [into.parent],
    });
  }
  return out;
}

/** A USSD view with no options at all: an END screen, no menu ("The last option of a menu" says nothing of it). */
export function isEndScreen<R>(view: CrawlView<R>): boolean {
  return isMenu(view) && view.ussd.options.length === 0;
}

export function endScreens<R>(crawl: Crawl<R>): Array<CrawlView<R>> {
  return menus(crawl).filter(isEndScreen);
}

/** The crawl in a few lines: what was visited, followed, skipped and why, and how deep it went. */
export function crawlSummary<R>(crawl: Crawl<R>): string[] {
  const views = [...crawl.views.values()];
  const starts = views.filter((v) => v.steps.length === 0).map((v) => v.start);
  const followed = crawl.links.filter((l) => !l.skipped).length;
  const bySkip = new Map<SkipReason, CrawlLink[]>();
  for (const l of crawl.links) if (l.skipped) bySkip.set(l.skipped, [...(bySkip.get(l.skipped) ?? []), l]);
  const o = crawl.options;
  const lines = [
    `crawled ${views.length} views (${views.filter(isMenu).length} menus) from ${starts.join(', ')} in ${crawl.durationMs} ms, ` +
      `${o.concurrency} at a time; depth reached ${crawl.maxDepthReached} (cap ${o.maxDepth}), view cap ${o.maxViews}` +
      `${o.allowMutations ? '; --allow-mutations: order and cancel links followed' : ''}`,
    `${crawl.links.length} options seen, ${followed} followed` +
      (bySkip.size === 0 ? '' : `; not followed: ${[...bySkip].map(([r, ls]) => `${ls.length} ${r}`).join(', ')}`),
  ];
  const moved = crawl.links.filter((l) => l.moved !== undefined);
  if (moved.length > 0) {
    const kinds = (['origin', 'base-path'] as const).flatMap((kind) => {
      const ls = moved.filter((l) => l.moved === kind);
      if (ls.length === 0) return [];
      const first = ls[0]!;
      return [
        `${ls.length} ${kind === 'origin' ? `on another origin than ${crawl.scope.origin}` : `on the target's origin outside ${crawl.scope.basePath || '/'}`}, e.g. ${JSON.stringify(first.requestUrl)} → GET ${first.url}`,
      ];
    });
    lines.push(
      `${moved.length} option${moved.length === 1 ? '' : 's'} written outside {base_url} followed by path and query below it (${kinds.join('; ')}): ussd.options.request-url judges where they were written, the other rules where they lead`,
    );
  }
  for (const [reason, ls] of bySkip) {
    if (CAP_REASONS.has(reason)) continue;
    const shown = ls.slice(0, 3).map((l) => `${linkTrail(crawl, l)}: ${JSON.stringify(l.requestUrl)}`);
    lines.push(
      `not followed (${SKIP_REASONS[reason]}): ${shown.join('; ')}${ls.length > 3 ? `; and ${ls.length - 3} more` : ''}`,
    );
  }
  return lines;
}

/** "stocks → 2 → 1" for the option a link is. */
export function linkTrail<R>(crawl: Crawl<R>, link: CrawlLink): string {
  const from = crawl.views.get(link.from);
  if (!from) return '?';
  return formatTrail(from.start, [...from.steps, { from: from.key, option: link.option, index: link.index }]);
}
