// "USSD views": GET /ussd/home, /ussd/portfolio, /ussd/stocks, /ussd/assets, /ussd/requests. Each view parses its
// parameters (400), then opens the customer's session (404), then builds a menu that ussd/menu.ts renders.
import type { RouteDef } from '../context.js';
import { ok } from '../respond.js';
import { assetsMenu, parseAssetsParams } from '../ussd/assets.js';
import { homeMenu } from '../ussd/home.js';
import { renderMenu, type Menu } from '../ussd/menu.js';
import { portfolioMenu } from '../ussd/portfolio.js';
import { parseRequestsParams, requestsMenu } from '../ussd/requests.js';
import { openSession, parseCustomerId, type UssdSession } from '../ussd/session.js';
import { parseStocksParams, stocksMenu } from '../ussd/stocks.js';

function ussdView<P>(path: string, parse: (query: URLSearchParams, faults: ReadonlySet<string>) => P, build: (session: UssdSession, params: P) => Menu): RouteDef {
  return {
    method: 'GET',
    path,
    handler(ctx, state) {
      const customerId = parseCustomerId(ctx, state);
      const params = parse(ctx.query, state.faults);
      const session = openSession(ctx, state, customerId);
      return ok(renderMenu(build(session, params), session.env));
    },
  };
}

const noParams = (): undefined => undefined;

export const ussdRoutes: RouteDef[] = [
  ussdView('/ussd/home', noParams, (session) => homeMenu(session)),
  ussdView('/ussd/portfolio', noParams, (session) => portfolioMenu(session)),
  ussdView('/ussd/stocks', parseStocksParams, stocksMenu),
  ussdView('/ussd/assets', parseAssetsParams, assetsMenu),
  ussdView('/ussd/requests', parseRequestsParams, requestsMenu),
];
