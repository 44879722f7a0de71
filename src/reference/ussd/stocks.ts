// /ussd/stocks: the list of instruments to buy, search, one instrument's detail, the amount prompt and the placing of
// an order request. The spec shows the order being placed by a GET carrying `amount` (inputMode), so it is placed so.
import type { Choices } from '../choices/index.js';
import { USSD_FAULT, type FaultFlags } from '../faults/flags.js';
import { HttpError, badRequest, notFound } from '../respond.js';
import { optionalQuery } from '../params.js';
import type { Asset, Instrument, StoredList } from '../store.js';
import {
  listPage,
  listTitle,
  pageHolding,
  pageParam,
  pagingChoices,
  type Choice,
  type Link,
  type Menu,
  type QueryValue,
} from './menu.js';
import {
  ASSETS,
  HOME,
  money,
  optionalId,
  optionalInteger,
  queryBoolean,
  queryPage,
  REQUESTS,
  STOCKS,
  tradingCurrency,
  type UssdSession,
} from './session.js';

export interface StocksParams {
  page: number;
  inputMode: boolean;
  searchMode: boolean;
  symbol?: string;
  amount?: number;
  assetId?: number;
}

/** Amounts offered by the amount prompt; a typed reply may be any integer > 0. */
const PRESET_AMOUNTS = [10, 50, 100] as const;
const MAX_SYMBOL_LENGTH = 40;
const SEARCH_SUGGESTIONS = 3;

/** `choices.ussdAssetId` 'ignored': a server that reads only the parameters of the table, where assetId is not listed. */
export function parseStocksParams(
  query: URLSearchParams,
  faults: FaultFlags,
  choices?: Pick<Choices, 'ussdAssetId'>,
): StocksParams {
  const page = queryPage(query, faults.has(USSD_FAULT.negativePageServed));
  const inputMode = queryBoolean(query, 'inputMode', faults);
  const searchMode = queryBoolean(query, 'searchMode', faults);
  const symbol = optionalQuery(query, 'symbol');
  if (
    symbol !== undefined &&
    (symbol.trim() === '' || symbol.length > MAX_SYMBOL_LENGTH || /[\u0000-\u001f\u007f]/.test(symbol))
  ) {
    throw badRequest(`symbol must be 1 to ${MAX_SYMBOL_LENGTH} printable characters`);
  }
  const amount = optionalInteger(query, 'amount');
  if (amount !== undefined && amount <= 0) throw badRequest('amount must be an integer > 0');
  const assetId = choices?.ussdAssetId === 'ignored' ? undefined : optionalId(query, 'assetId');
  // amount places an order: accepted only where the client clearly asked for input mode, never by accident.
  if (amount !== undefined && !inputMode) throw badRequest('amount is accepted only with inputMode=true');
  if (inputMode && searchMode) throw badRequest('inputMode and searchMode cannot both be true');
  if (inputMode && symbol === undefined && assetId === undefined)
    throw badRequest('inputMode=true needs symbol or assetId');
  if (symbol !== undefined && assetId !== undefined) throw badRequest('symbol and assetId cannot be given together');
  if (searchMode && assetId !== undefined) throw badRequest('searchMode does not take assetId');
  return {
    page,
    inputMode,
    searchMode,
    ...(symbol !== undefined ? { symbol } : {}),
    ...(amount !== undefined ? { amount } : {}),
    ...(assetId !== undefined ? { assetId } : {}),
  };
}

export function stocksMenu(session: UssdSession, p: StocksParams): Menu {
  if (p.inputMode) return buyMenu(session, p);
  if (p.searchMode) return p.symbol === undefined ? searchPrompt(session) : searchResults(session, p.symbol, p.page);
  if (p.assetId !== undefined) return assetMenu(session, ownedAsset(session, p.assetId));
  if (p.symbol !== undefined) return detailMenu(session, instrumentBySymbol(session, p.symbol), p.page);
  return listMenu(session, p.page);
}

// ---- lookups ------------------------------------------------------------------------------------------------

/** Instruments that can be bought, in list order (oldest first, then by id). */
function availableInstruments(session: UssdSession): StoredList<Instrument> {
  return session.state.store.availableInstruments();
}

/** Symbols are matched case-insensitively: a phone keypad user types "aapl" as readily as "AAPL". */
function instrumentBySymbol(session: UssdSession, symbol: string): Instrument {
  const found = session.state.store.instrumentBySymbol(symbol);
  if (found === undefined) throw notFound();
  return found;
}

/** An asset of another customer is as unknown as one that does not exist. */
function ownedAsset(session: UssdSession, assetId: number): Asset {
  const asset = session.state.store.getAsset(assetId);
  if (asset === undefined || asset.customerId !== session.customer.customerId) throw notFound();
  return asset;
}

function stocksLink(query: Record<string, QueryValue>): Link {
  return { path: STOCKS.path, query };
}

// ---- views --------------------------------------------------------------------------------------------------

function listMenu(session: UssdSession, page: number): Menu {
  const { env } = session;
  const available = availableInstruments(session);
  const list = listPage(available, page, 'ASC', env);
  const choices: Choice[] = list.items.map((instrument, i) => {
    // The off-by-one: each item linked to the one listed after it.
    const shifted = env.faults.has(USSD_FAULT.optionsShifted)
      ? available[(available.findIndex((a) => a.instrumentId === instrument.instrumentId) + 1) % available.length]
      : undefined;
    const link = stocksLink({ symbol: (shifted ?? instrument).symbol, page: pageParam(page) });
    // A typo'd path in the first item's link: the kind of dead link a crawler must report.
    const dead = i === 0 && env.faults.has(USSD_FAULT.deadLink);
    return { label: `${instrument.symbol} ${instrument.name}`, to: dead ? { ...link, path: '/ussd/stock' } : link };
  });
  choices.push(...pagingChoices(list, (pg) => stocksLink({ page: pageParam(pg) }), env));
  choices.push({ label: 'Search', to: stocksLink({ searchMode: true }) });
  return {
    title: listTitle('Stocks', list),
    lines: list.items.length === 0 ? ['No more stocks.'] : [],
    choices,
    back: { label: 'Back', to: HOME },
  };
}

/** `page` is the list page the detail was opened from: Back returns there. */
function detailMenu(session: UssdSession, instrument: Instrument, fromPage: number): Menu {
  const lines = instrument.valueChangeOverTime.slice(0, 2).map((v) => v.summary);
  const held = session.state.store
    .assetList(session.customer.customerId)
    .filter((a) => a.instrumentId === instrument.instrumentId)
    .reduce((sum, a) => sum + a.position, 0);
  if (held > 0) lines.push(`You hold ${held}`);
  const choices: Choice[] = [];
  if (!instrument.isAvailable) lines.push('Not available to buy.');
  else if (tradingCurrency(session) === undefined) lines.push('Buying is not open for your account.');
  else
    choices.push({
      label: 'Buy',
      to: stocksLink({ inputMode: true, symbol: instrument.symbol, page: pageParam(fromPage) }),
    });

  let back: Link = stocksLink({ page: pageParam(fromPage) });
  if (session.env.faults.has(USSD_FAULT.noBackOption)) {
    // "Back" that goes forward: to the next stock's detail instead of the list.
    const available = availableInstruments(session);
    const next =
      available[(available.findIndex((i) => i.instrumentId === instrument.instrumentId) + 1) % available.length];
    if (next !== undefined) back = stocksLink({ symbol: next.symbol, page: pageParam(fromPage) });
  }
  return {
    title: `${instrument.symbol} - ${instrument.name}`,
    lines,
    choices,
    back: { label: 'Back', to: back },
    ...(session.env.faults.has(USSD_FAULT.backListedFirst) ? { backFirst: true } : {}),
  };
}

/**
 * Reached from the assets menu ("Follow-up URLs generated for the asset menu also address this path with an assetId").
 * Under ussd-terminal=detail-views an END screen: what the holding is worth, and no options.
 */
function assetMenu(session: UssdSession, asset: Asset): Menu {
  const { store } = session.state;
  const instrument = store.getInstrument(asset.instrumentId)!;
  const held = [
    `You hold ${asset.position} (${asset.available} available)`,
    `Value: ${money(asset.currency, Math.round(asset.position * asset.marketPrice * 100) / 100)}`,
  ];
  if (session.env.choices.ussdTerminal === 'detail-views')
    return { title: `${asset.symbol} - ${asset.name}`, lines: held, choices: [] };
  const choices: Choice[] = [];
  if (instrument.isAvailable && tradingCurrency(session) !== undefined) {
    choices.push({ label: 'Buy more', to: stocksLink({ inputMode: true, assetId: asset.assetId }) });
  }
  const page = pageHolding(
    store.assetList(session.customer.customerId).findIndex((a) => a.assetId === asset.assetId),
    session.env,
  );
  return {
    title: `${asset.symbol} - ${asset.name}`,
    lines: [...held, ...(choices.length === 0 ? ['Not available to buy.'] : [])],
    choices,
    back: { label: 'Back', to: { path: ASSETS.path, query: { page: pageParam(page) } } },
  };
}

function searchPrompt(session: UssdSession): Menu {
  return {
    title: 'Search stocks',
    lines: ['Reply with a symbol or name, or pick one:'],
    choices: availableInstruments(session)
      .slice(0, SEARCH_SUGGESTIONS)
      .map((i) => ({ label: i.symbol, to: stocksLink({ searchMode: true, symbol: i.symbol }) })),
    back: { label: 'Back', to: STOCKS },
  };
}

function searchResults(session: UssdSession, text: string, page: number): Menu {
  const needle = text.trim().toLowerCase();
  const matches = availableInstruments(session).filter(
    (i) => i.symbol.toLowerCase().includes(needle) || i.name.toLowerCase().includes(needle),
  );
  const list = listPage(matches, page, 'ASC', session.env);
  const choices: Choice[] = list.items.map((i) => ({
    label: `${i.symbol} ${i.name}`,
    to: stocksLink({ symbol: i.symbol }),
  }));
  choices.push(
    ...pagingChoices(list, (pg) => stocksLink({ searchMode: true, symbol: text, page: pageParam(pg) }), session.env),
  );
  return {
    title: listTitle(`Results for "${text}"`, list),
    lines: matches.length === 0 ? [`No stocks match "${text}".`] : list.items.length === 0 ? ['No more results.'] : [],
    choices,
    back: { label: 'Back', to: stocksLink({ searchMode: true }) },
  };
}

/** inputMode: the amount prompt, or with `amount` the placing of a PENDING order request and its confirmation. */
function buyMenu(session: UssdSession, p: StocksParams): Menu {
  const { store } = session.state;
  let instrument: Instrument;
  let target: Record<string, QueryValue>;
  let cameFrom: Link;
  if (p.assetId !== undefined) {
    const asset = ownedAsset(session, p.assetId);
    instrument = store.getInstrument(asset.instrumentId)!;
    target = { assetId: asset.assetId };
    cameFrom = stocksLink({ assetId: asset.assetId });
  } else {
    instrument = instrumentBySymbol(session, p.symbol!);
    target = { symbol: instrument.symbol, page: pageParam(p.page) };
    cameFrom = stocksLink(target);
  }
  if (!instrument.isAvailable) throw new HttpError(409, `Conflict: ${instrument.symbol} is not available to buy`);
  const currency = tradingCurrency(session);
  if (currency === undefined) throw new HttpError(409, 'Conflict: the customer has no ACTIVE account to buy from');

  if (p.amount === undefined) {
    return {
      title: `Buy ${instrument.symbol}`,
      lines: [`Reply with an amount in ${currency}, or pick one:`],
      choices: PRESET_AMOUNTS.map((amount) => ({
        label: money(currency, amount),
        to: stocksLink({ inputMode: true, ...target, amount }),
      })),
      back: { label: 'Back', to: cameFrom },
    };
  }
  const request = store.placeOrderRequest(
    { customerId: session.customer.customerId, instrumentId: instrument.instrumentId, amount: p.amount, currency },
    session.now,
  );
  return {
    title: 'Order received',
    lines: [
      `Buy ${instrument.symbol} for ${money(currency, p.amount)}`,
      `Request #${request.requestId} is ${request.status}.`,
    ],
    choices: [{ label: 'View request', to: { path: REQUESTS.path, query: { requestId: request.requestId } } }],
    // The end of a flow: back to the main menu, not to the prompt that would place the order again.
    back: { label: 'Home', to: HOME },
  };
}
