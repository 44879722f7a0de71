// "USSD view": one menu value (title, text lines, choices, a back choice) becomes `{ussdMessage, ussdOptions}` here and
// nowhere else, so numbering, the back option, the full follow-up URLs and the faults that bend them are in one place.
import { paginate } from '../paging.js';
import { USSD_FAULT, type FaultFlags } from '../faults/flags.js';
import type { Choices } from '../choices/index.js';

/** Items per page of every USSD list: a feature-phone screen holds about 160 characters. */
const USSD_PAGE_SIZE = 3;

export type QueryValue = string | number | boolean | undefined;

/** A follow-up request, relative to /v1. The renderer adds customerId first, so no menu can forget it. */
export interface Link {
  path: string;
  /** Written in this order after customerId; undefined values are left out. */
  query?: Readonly<Record<string, QueryValue>>;
  /** Only the ussd.customer-dropped fault sets this. */
  withoutCustomer?: boolean;
  /** Another customerId than the session's: only the ussd.customer-id-changed fault sets this. */
  customerId?: number;
}

export interface Choice {
  label: string;
  to: Link;
  /** The Next choice of a list: only the ussd.more-listed-last fault moves it. */
  next?: boolean;
}

export interface Menu {
  title: string;
  lines?: readonly string[];
  choices: readonly Choice[];
  /**
   * The last option: "The last option of a menu leads back to a parent menu". Absent only on an END screen (choice
   * ussd-terminal=detail-views), a view with no options at all, which is no menu.
   */
  back?: Choice;
  /** Back listed first, as 0, instead: only the ussd.back-listed-first fault sets this. */
  backFirst?: boolean;
}

interface UssdOption {
  option: number;
  requestUrl: string;
  /** Always GET, except under the ussd.request-type-not-method fault. */
  requestType: string;
}

export interface UssdView {
  ussdMessage: string;
  ussdOptions: UssdOption[];
}

/** What rendering needs to know of the request: whose session it is, where the server is, how it numbers. */
export interface UssdEnv {
  /** The server's own origin as the client addressed it (scheme, Host), e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** The full URL of the view being rendered, as the client addressed it: only the ussd.options-self-loop fault uses it. */
  url: string;
  customerId: number;
  choices: Pick<
    Choices,
    'ussdNumbering' | 'ussdBack' | 'pageMode' | 'ussdAssetId' | 'ussdTerminal' | 'ussdRequestsMenu'
  >;
  faults: FaultFlags;
}

/** The same prefix as server.ts; not imported from there, since the server imports the routes that import this. */
const API_PREFIX = '/v1';

function linkUrl(link: Link, env: UssdEnv): string {
  const query = new URLSearchParams();
  if (!link.withoutCustomer) query.set('customerId', String(link.customerId ?? env.customerId));
  for (const [name, value] of Object.entries(link.query ?? {})) {
    if (value !== undefined) query.set(name, String(value));
  }
  const search = query.toString();
  const relative = `${API_PREFIX}${link.path}${search === '' ? '' : `?${search}`}`;
  return env.faults.has(USSD_FAULT.relativeUrl) ? relative : `${env.origin}${relative}`;
}

const NUMBERING: Record<Choices['ussdNumbering'], string> = {
  dot: '. ',
  paren: ') ',
  dash: ' - ',
  colon: ':',
  compact: '.',
};

/**
 * ussd-back=zero-and-home: after "0 Back", a "Home" choice, last. ExUssd offers BACK "0" and HOME "00", but an option
 * is an integer and "00" is 0, the number of Back: Home takes 99. A menu whose Back leads home offers no second way
 * there (as ExUssd shows neither on its first menu), so /ussd/home never links to itself but by its last option.
 */
const HOME_NUMBER = 99;
/** ExUssd's MORE: only the ussd.more-listed-last fault numbers Next so. */
const MORE_NUMBER = 98;
const HOME_PATH = '/ussd/home';

export function renderMenu(menu: Menu, env: UssdEnv): UssdView {
  // A view with choices and no way back would be a menu breaking "The last option of a menu leads back".
  if (menu.back === undefined && menu.choices.length > 0) throw new Error(`menu "${menu.title}" has no way back`);
  // ExUssd's navigation order, BACK then MORE: Next leaves the items and is written last, as 98.
  const moreLast =
    env.faults.has(USSD_FAULT.moreListedLast) && menu.back !== undefined
      ? menu.choices.find((choice) => choice.next)
      : undefined;
  const numbered = menu.choices.filter((choice) => choice !== moreLast).map((choice, i) => ({ option: i + 1, choice }));
  let backNumber = env.choices.ussdBack === 'next' ? numbered.length + 1 : 0;
  // The classic off-by-one: the back choice reuses the number of the last item.
  if (env.faults.has(USSD_FAULT.duplicateOptionNumbers) && numbered.length > 0) backNumber = numbered.length;
  const back = menu.back;
  const all =
    back === undefined
      ? numbered
      : menu.backFirst
        ? [{ option: 0, choice: back }, ...numbered]
        : [...numbered, { option: backNumber, choice: back }];
  if (env.choices.ussdBack === 'zero-and-home' && back !== undefined && !menu.backFirst && back.to.path !== HOME_PATH)
    all.push({ option: HOME_NUMBER, choice: { label: 'Home', to: { path: HOME_PATH } } });
  if (moreLast) all.push({ option: MORE_NUMBER, choice: moreLast });

  // "1. Buy", "1) Buy", "1 - Buy", "1:Buy" or "1.Buy": the spec shows "numbered choices" and no style.
  const separator = NUMBERING[env.choices.ussdNumbering];
  const lines = [menu.title, ...(menu.lines ?? [])];
  all.forEach(({ option, choice }, i) => {
    if (i === 0 && env.faults.has(USSD_FAULT.optionNotInMessage)) return;
    lines.push(`${option}${separator}${choice.label}`);
  });
  // A template that renders the text only around a list of choices: a menu whose only choice is Back comes out blank.
  const blank = env.faults.has(USSD_FAULT.emptyMessage) && menu.choices.length === 0 && back !== undefined;
  // The kind of follow-up ("USSD", the channel) written where the HTTP method belongs.
  const requestType = env.faults.has(USSD_FAULT.requestTypeNotMethod)
    ? 'USSD'
    : env.faults.has(USSD_FAULT.requestTypeLowercase)
      ? 'get'
      : 'GET';
  return {
    ussdMessage: blank ? '' : lines.join('\n'),
    // Every option written with the URL of the view it is on: whatever the user picks, the same view comes back.
    ussdOptions: all.map(({ option, choice }) => ({
      option,
      requestUrl: env.faults.has(USSD_FAULT.optionsSelfLoop) ? env.url : linkUrl(choice.to, env),
      requestType,
    })),
  };
}

// ---- lists --------------------------------------------------------------------------------------------------

/** Page 0 is written as no `page` at all, so a link to the first page equals the link that opened the list. */
export function pageParam(page: number): number | undefined {
  return page === 0 ? undefined : page;
}

export interface ListPage<T> {
  items: T[];
  page: number;
  /** 1-based position of the first item shown, for "(1-3 of 5)". */
  first: number;
  total: number;
  previous?: number;
  next?: number;
}

/**
 * One page of a USSD list, given in list order (paging.ts inListOrder). `page` means what it means on the list
 * endpoints for this variant (a page index or an item offset), so a client that learnt one meaning from GET
 * /instruments is not surprised here.
 */
export function listPage<T>(ascending: readonly T[], page: number, sort: 'ASC' | 'DESC', env: UssdEnv): ListPage<T> {
  if (page < 0) {
    // Only a fault lets a negative page this far: nothing is there, and Previous and Next are computed unchecked.
    const step = env.choices.pageMode === 'index' ? 1 : USSD_PAGE_SIZE;
    return { items: [], page, first: 0, total: ascending.length, previous: page - step, next: page + step };
  }
  const { items, meta } = paginate(ascending, { page, limit: USSD_PAGE_SIZE, sort }, env.choices);
  const start = env.choices.pageMode === 'index' ? page * USSD_PAGE_SIZE : page;
  return {
    items,
    page,
    first: start + 1,
    total: meta.totalCount,
    // No "Previous" from past the end: it would lead from one empty page to another.
    ...(page > 0 && items.length > 0 ? { previous: meta.previousPage } : {}),
    ...(meta.nextPage !== meta.currentPage ? { next: meta.nextPage } : {}),
    // "Next" computed as page + 1 without looking at the total: the list goes on past its end, page after empty page.
    ...(env.faults.has(USSD_FAULT.endlessList)
      ? { next: env.choices.pageMode === 'index' ? page + 1 : page + USSD_PAGE_SIZE }
      : {}),
  };
}

/** The `page` value of the list page that holds the item at `index` (0-based) of the sorted list. */
export function pageHolding(index: number, env: UssdEnv): number {
  const pageIndex = Math.floor(index / USSD_PAGE_SIZE);
  return env.choices.pageMode === 'index' ? pageIndex : pageIndex * USSD_PAGE_SIZE;
}

/** "Stocks (1-3 of 5)"; just the name when the page is empty (the menu's text then says why). */
export function listTitle(name: string, list: ListPage<unknown>): string {
  return list.items.length === 0
    ? name
    : `${name} (${list.first}-${list.first + list.items.length - 1} of ${list.total})`;
}

/** "Next" and "Previous" choices; `at(page)` is the link to another page of the same list. */
export function pagingChoices(list: ListPage<unknown>, at: (page: number) => Link, env: UssdEnv): Choice[] {
  const choices: Choice[] = [];
  if (list.next !== undefined) {
    const target = env.faults.has(USSD_FAULT.pagingLoop) ? list.page : list.next;
    const link = at(target);
    choices.push({
      label: 'Next',
      to: env.faults.has(USSD_FAULT.customerDropped) ? { ...link, withoutCustomer: true } : link,
      next: true,
    });
  }
  if (list.previous !== undefined) choices.push({ label: 'Previous', to: at(list.previous) });
  return choices;
}
