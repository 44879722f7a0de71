// Work several checks of a suite need from the server, done once per run and judged by each (issue 29): a walk of a
// list, a first page, a fixture read. Whichever check asks first sends the requests (its exchanges hold them); the
// others await the same answers and judge them themselves, so their findings stay their own, and record where the
// requests are (CheckResult.sharedExchanges). Only reads whose answer does not depend on when they are sent are
// shared: a read that follows a change (a customer read back after PUT /customers) or that two checks compare at one
// moment stays each check's own.
import type { CheckContext } from '../../src/engine/index.js';
import type { HttpResponse } from '../../src/http/client.js';
import type { Query } from './resource-helpers.js';

/** A suite's shared work of one kind in one run, by key: the promise of whichever check started it. */
export type SharedStore<T> = Map<string, Promise<T>>;

/**
 * The run's one piece of work under `key`, started by whichever check asks first, and whether this check started it.
 * Work that broke (a transport error), or that was stopped with the check that started it (its time limit), is no
 * one's verdict: it is dropped and the asking check starts it afresh.
 */
export async function takeShared<T>(
  ctx: CheckContext,
  store: SharedStore<T>,
  key: string,
  start: () => Promise<T>,
): Promise<{ value: T; mine: boolean }> {
  for (;;) {
    // A check past its time limit runs on unobserved; it must not start work that its stopped signal would cut short.
    if (ctx.signal.aborted) throw new Error('the check was stopped before its requests');
    let pending = store.get(key);
    const mine = pending === undefined;
    if (!pending) {
      pending = start();
      store.set(key, pending);
    }
    try {
      return { value: await pending, mine };
    } catch (e) {
      if (store.get(key) === pending) store.delete(key);
      if (mine) throw e;
    }
  }
}

const queryText = (query: Query): string =>
  Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');

/** How a shared read or walk is named: `GET /path?query`. */
export function readLabel(path: string, query: Query = {}): string {
  const q = queryText(query);
  return `GET ${path}${q ? `?${q}` : ''}`;
}

/**
 * The run's answer to a plain GET of `path` with `query` (the run's token, the client's signing profile), sent by
 * whichever check asks first; a check that did not send it records the exchange as judged from another check's
 * (CheckResult.sharedExchanges). What the answer must be is each caller's to judge (see judgeObserved, which joins a
 * cited exchange to the failing check's own).
 */
export async function sharedGet(
  ctx: CheckContext,
  store: SharedStore<HttpResponse>,
  path: string,
  query: Query = {},
): Promise<HttpResponse> {
  const { value: res, mine } = await takeShared(ctx, store, readLabel(path, query), () =>
    ctx.send({ method: 'GET', path, query }),
  );
  if (!mine) ctx.judgedShared(res.exchange);
  return res;
}
