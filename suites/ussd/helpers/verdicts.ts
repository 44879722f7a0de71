// How the checks that read the crawl attach evidence, word a failure, and skip when the crawl gave them nothing to judge.
import { type CheckContext } from '../../../src/engine/index.js';
import { cite, describeResponse, isObserved, parseJson, type Exchange, type HttpResponse } from '../../kit/index.js';
import { SKIP_REASONS, ussdDataOf, type CrawlView, type SkipReason } from './crawler.js';
import { menus, whereIs, type Problem } from './menu-graph.js';
import { type UssdCrawl } from './shared-crawl.js';

/**
 * Puts a crawl exchange on this check's record, so the report shows it; returns it for the finding to name. The run's
 * crawl was sent for every check, so the exchange takes this check's id; an observed one keeps its own (see cite).
 */
export function attach(ctx: CheckContext, view: CrawlView<Exchange> | undefined): Exchange | undefined {
  const ex = view?.ref;
  if (!ex) return undefined;
  if (isObserved(ex)) return cite(ctx, { exchange: ex });
  if (!ctx.exchanges.some((e) => e.seq === ex.seq)) ctx.exchanges.push({ ...ex, checkId: ctx.check.id });
  return ex;
}

/** Fails with the first problem (and its exchange), listing a few more so a reviewer sees whether it is systematic. */
export function failOn(ctx: CheckContext, problems: Array<Problem<Exchange>>, verdict: string, expected: string): void {
  const first = problems[0];
  if (!first) return;
  const exchange = attach(ctx, first.view);
  for (const v of first.also ?? []) attach(ctx, v);
  const others = problems.slice(1);
  const listed = others.slice(0, 5).map((p) => `- ${p.message}`);
  if (others.length > 5) listed.push(`- … and ${others.length - 5} more`);
  ctx.fail(`${verdict}: ${first.message}`, {
    expected,
    ...(others.length > 0 ? { observed: [`${others.length} more:`, ...listed].join('\n') } : {}),
    ...(exchange ? { exchange } : {}),
  });
}

/**
 * One problem per view for rules that judge a view as a whole (`per: 'view'`) or each of its options (`'option'`):
 * every menu judged, or every option of it, is recorded as judged (a view without options has no option to judge).
 */
export function perView(
  ctx: CheckContext,
  c: UssdCrawl,
  per: 'view' | 'option',
  judge: (view: ReturnType<typeof menus<Exchange>>[number]) => string[],
): Array<Problem<Exchange>> {
  return menus(c).flatMap((view) => {
    const found = judge(view);
    if (per === 'view') ctx.judged(`view GET ${view.url}`);
    else if (view.ussd.options.length > 0) ctx.judged(`options of GET ${view.url}`, view.ussd.options.length);
    return found.length === 0 ? [] : [{ view, message: `${whereIs(view)}: ${found.join('; ')}` }];
  });
}

type SkipRemedy = Parameters<CheckContext['skip']>[1];

/** Ends a check that judged nothing as a skip that says why, never as a pass (the engine holds the same rule). */
export function skipUnjudged(ctx: CheckContext, why: string, remedy?: SkipRemedy): void {
  if (ctx.subjectsJudged.count === 0) ctx.skip(why, remedy);
}

/** How the start menus answered, for a skip: "stocks 500, assets 500, requests 200". */
function startsAnswered(c: UssdCrawl): string {
  return [...c.views.values()]
    .filter((v) => v.steps.length === 0)
    .map((v) => `${v.start} ${v.status ?? v.error ?? '?'}`)
    .join(', ');
}

/** A skip for a crawl that judged no view: no start menu answered 200 with a USSD view. */
export function noViewReason(c: UssdCrawl): string {
  return `no view answered 200 with a USSD view (start menus: ${startsAnswered(c)}): there is no menu to judge; ussd.links.alive judges the start menus`;
}

/**
 * When the crawl saw options and followed none of them, the skip of a rule on where options lead: it judged nothing
 * ("29 options seen, 0 followed: 29 foreign-origin (…)"), and a pass would claim a graph that was not seen. The
 * remedy is --allow-mutations when only order and cancel links were left.
 */
function nothingFollowed(c: UssdCrawl): { reason: string; remedy?: SkipRemedy } | undefined {
  if (c.links.length === 0 || c.links.some((l) => !l.skipped)) return undefined;
  const by = new Map<SkipReason, number>();
  for (const l of c.links) by.set(l.skipped!, (by.get(l.skipped!) ?? 0) + 1);
  const reasons = [...by].map(([r, n]) => `${n} ${r}: ${SKIP_REASONS[r]}`).join('; ');
  const mutations = !c.options.allowMutations && [...by.keys()].every((r) => r === 'order' || r === 'cancel');
  return {
    reason: `${c.links.length} option${c.links.length === 1 ? '' : 's'} seen, 0 followed (${reasons})`,
    ...(mutations ? { remedy: { kind: 'allow-mutations' } as const } : {}),
  };
}

export function skipIfNothingFollowed(ctx: CheckContext, c: UssdCrawl, consequence: string): void {
  const none = nothingFollowed(c);
  if (none) ctx.skip(`${none.reason}: ${consequence}`, none.remedy);
}

export function option(raw: unknown): unknown {
  return (raw as { option?: unknown } | null)?.option;
}

/** The status and the first line of the menu shown ("200 "Order received""), or a body excerpt when it is no menu. */
export function answerLine(res: HttpResponse): string {
  const parsed = parseJson(res.text);
  const data = parsed.ok ? ussdDataOf(parsed.value) : undefined;
  const title = data?.message.split(/\r\n|\r|\n/)[0];
  return title ? `${res.status} "${title}"` : describeResponse(res);
}
