// "Instruments": GET /instruments?investmentType=INTERNATIONAL_STOCKS. The announced future types (COMMODITY, BONDS,
// LOCAL_STOCKS, FOREIGN_EXCHANGE, CRYPTO) "are not accepted values today", so they get the same 400 as any other value.
// "lists available instruments" reads two ways (REQ-INSTEP-02): `instrumentsListed` says which.
import type { RouteDef } from '../context.js';
import { listReply, parsePaging } from '../paging.js';
import { requireQuery } from '../params.js';
import { badRequest } from '../respond.js';
import { INVESTMENT_TYPES, type InvestmentType } from '../store.js';
import { instrumentView } from '../views.js';

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
      const all = state.store.instrumentListOf(type as InvestmentType);
      const listed = state.choices.instrumentsListed === 'available' ? all.filter((i) => i.isAvailable) : all;
      return listReply(listed, paging, state.choices, (i) => instrumentView(i, state.choices));
    },
  },
];
