// "USSD views": GET /ussd/home, /ussd/portfolio, /ussd/stocks, /ussd/assets, /ussd/requests. Each view parses its
// parameters (400), then opens the customer's session (404, or a view or END screen saying so: choice
// ussd-unknown-customer), then builds a menu that ussd/menu.ts renders. /ussd/home and /ussd/portfolio are 404 under
// ussd-home-portfolio=not-served.
import type { RouteDef, ServerState } from '../context.js';
import type { FaultFlags } from '../faults/flags.js';
import { notFound, ok } from '../respond.js';
import { assetsMenu, parseAssetsParams } from '../ussd/assets.js';
import { homeMenu } from '../ussd/home.js';
import { renderMenu, type Menu } from '../ussd/menu.js';
import { portfolioMenu } from '../ussd/portfolio.js';
import { parseRequestsParams, requestsMenu } from '../ussd/requests.js';
import {
  isKnown,
  openSession,
  parseCustomerId,
  ussdEnv,
  unknownCustomerMenu,
  type UssdSession,
} from '../ussd/session.js';
import { parseStocksParams, stocksMenu } from '../ussd/stocks.js';

type Parse<P> = (query: URLSearchParams, faults: FaultFlags, choices: ServerState['choices']) => P;

function ussdView<P>(
  path: string,
  parse: Parse<P>,
  build: (session: UssdSession, params: P) => Menu,
  linkedOnly = false,
): RouteDef {
  return {
    method: 'GET',
    path,
    handler(ctx, state) {
      // Another system serves these menus; this API only links to them.
      if (linkedOnly && state.choices.ussdHomePortfolio === 'not-served') throw notFound();
      const customerId = parseCustomerId(ctx, state);
      const params = parse(ctx.query, state.faults, state.choices);
      const unknownAs = state.choices.ussdUnknownCustomer;
      if (!isKnown(state, customerId) && (unknownAs === 'view' || unknownAs === 'end-screen')) {
        const menu = unknownCustomerMenu(customerId, unknownAs === 'end-screen');
        return ok(renderMenu(menu, ussdEnv(ctx, state, customerId)));
      }
      const session = openSession(ctx, state, customerId);
      return ok(renderMenu(build(session, params), session.env));
    },
  };
}

const noParams = (): undefined => undefined;

export const ussdRoutes: RouteDef[] = [
  ussdView('/ussd/home', noParams, (session) => homeMenu(session), true),
  ussdView('/ussd/portfolio', noParams, (session) => portfolioMenu(session), true),
  ussdView('/ussd/stocks', parseStocksParams, stocksMenu),
  ussdView('/ussd/assets', parseAssetsParams, assetsMenu),
  ussdView('/ussd/requests', parseRequestsParams, requestsMenu),
];
