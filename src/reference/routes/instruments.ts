// "Instruments": GET /instruments?investmentType=INTERNATIONAL_STOCKS. The announced future types (COMMODITY, BONDS,
// LOCAL_STOCKS, FOREIGN_EXCHANGE, CRYPTO) "are not accepted values today", so they get the same 400 as any other value.
import type { RouteDef } from '../context.js';
import { paginate, parsePaging } from '../paging.js';
import { requireQuery } from '../params.js';
import { badRequest, okList } from '../respond.js';
import { INVESTMENT_TYPES, type InvestmentType } from '../store.js';

export const instrumentRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/instruments',
    handler(ctx, state) {
      const type = requireQuery(ctx.query, 'investmentType');
      if (!(INVESTMENT_TYPES as readonly string[]).includes(type)) {
        throw badRequest(`investmentType must be one of ${INVESTMENT_TYPES.join(', ')}`);
      }
      const paging = parsePaging(ctx.query, state.choices);
      const page = paginate(state.store.instrumentListOf(type as InvestmentType), paging, state.choices);
      return okList(page.items, page.meta);
    },
  },
];
