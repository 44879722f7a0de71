// /ussd/assets: the customer's holdings, paged; `detail=true` shows the same page with value and gain per holding
// (under ussd-terminal=detail-views as an END screen: the text alone, no options). The spec gives this menu no
// assetId, so each holding links to /ussd/stocks?assetId= ("Follow-up URLs generated for the asset menu also address
// this path with an assetId parameter").
import type { Asset } from '../store.js';
import { USSD_FAULT, type FaultFlags } from '../faults/flags.js';
import { optionalQuery } from '../params.js';
import { badRequest } from '../respond.js';
import { listPage, listTitle, pageParam, pagingChoices, type Choice, type Link, type Menu } from './menu.js';
import { ASSETS, HOME, money, queryBoolean, queryPage, signedPercent, STOCKS, type UssdSession } from './session.js';

export interface AssetsParams {
  page: number;
  detail: boolean;
}

export function parseAssetsParams(query: URLSearchParams, faults: FaultFlags): AssetsParams {
  return {
    page: faults.has(USSD_FAULT.pageNotIntegerIgnored)
      ? parseIntPage(query)
      : queryPage(query, faults.has(USSD_FAULT.negativePageCrash)),
    detail: queryBoolean(query, 'detail', faults),
  };
}

/** page read with parseInt, 0 when it is no number at all: page=x is the first page, page=1.5 page 1. */
function parseIntPage(query: URLSearchParams): number {
  const text = optionalQuery(query, 'page');
  const n = text === undefined ? 0 : Number.parseInt(text, 10);
  const page = Number.isNaN(n) ? 0 : n;
  if (page < 0) throw badRequest('page must be an integer >= 0');
  return page;
}

export function assetsMenu(session: UssdSession, p: AssetsParams): Menu {
  const { env } = session;
  const all = session.state.store.assetList(session.customer.customerId);
  // A page that was never range-checked: the holdings "at" a negative offset are read as if they were there.
  if (p.page < 0)
    throw new TypeError(`Cannot read properties of undefined (reading 'symbol'): no asset at page ${p.page}`);
  const list = listPage(all, p.page, 'ASC', env);
  if (p.detail && env.choices.ussdTerminal === 'detail-views') {
    // An END screen: the details of the page as text, and the session ends there.
    return {
      title: listTitle('My assets - details', list),
      lines: list.items.length === 0 ? ['No more assets.'] : list.items.map(detailLabel),
      choices: [],
    };
  }
  const at = (page: number): Link => ({
    path: ASSETS.path,
    query: { detail: p.detail ? true : undefined, page: pageParam(page) },
  });
  const choices: Choice[] = list.items.map((a) => ({
    label: p.detail ? detailLabel(a) : `${a.symbol} ${a.position} units`,
    to: { path: STOCKS.path, query: { assetId: a.assetId } },
  }));
  choices.push(...pagingChoices(list, at, env));
  if (all.length === 0) choices.push({ label: 'Buy stocks', to: STOCKS });
  else if (!p.detail && list.items.length > 0) {
    const details: Link = { path: ASSETS.path, query: { detail: true, page: pageParam(p.page) } };
    // The customer's external id written where the internal one belongs.
    choices.push({
      label: 'Details',
      to: env.faults.has(USSD_FAULT.customerIdChanged)
        ? { ...details, customerId: session.customer.referenceId }
        : details,
    });
  }
  return {
    title: listTitle(p.detail ? 'My assets - details' : 'My assets', list),
    lines: all.length === 0 ? ['You hold no assets yet.'] : list.items.length === 0 ? ['No more assets.'] : [],
    choices,
    // Details come from the summary of the same page, so Back returns there; the summary comes from home.
    back: p.detail
      ? { label: 'Back', to: { path: ASSETS.path, query: { page: pageParam(p.page) } } }
      : {
          label: 'Back',
          to: backCycles(env.faults, p, list.items.length) ? { path: ASSETS.path, query: { detail: true } } : HOME,
        },
  };
}

/** Back of the first page built from its Details link: the two views' Back options lead to each other, never home. */
function backCycles(faults: FaultFlags, p: AssetsParams, shown: number): boolean {
  return faults.has(USSD_FAULT.backCycle) && !p.detail && p.page === 0 && shown > 0;
}

function detailLabel(a: Readonly<Asset>): string {
  const value = a.position * a.marketPrice;
  const gain = a.investmentAmount === 0 ? 0 : (value - a.investmentAmount) / a.investmentAmount;
  return `${a.symbol} ${a.position} @ ${a.marketPrice.toFixed(2)} = ${money(a.currency, Math.round(value * 100) / 100)} (${signedPercent(gain)})`;
}
