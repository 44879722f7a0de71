// "Accounts": GET /accounts?customerId= and GET /accounts/{accountId}.
import { nowSeconds, type RouteDef, type ServerState } from '../context.js';
import { listReply, parsePaging, type Paging } from '../paging.js';
import { pathInteger, queryInteger } from '../params.js';
import { notFound, ok, type Reply } from '../respond.js';
import { accountDetailView } from '../views.js';

/** The list of a customer that does not exist: a 404, or an empty list (REQ-ERR-06, `unknownCustomerList`). */
export function unknownCustomerList(paging: Paging, state: ServerState): Reply {
  if (state.choices.unknownCustomerList === '404') throw notFound();
  return listReply([], paging, state.choices);
}

export const accountRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/accounts',
    handler(ctx, state) {
      const customerId = queryInteger(ctx.query, 'customerId');
      const paging = parsePaging(ctx.query, state.choices);
      if (!state.store.hasCustomer(customerId)) return unknownCustomerList(paging, state);
      return listReply(state.store.accountList(customerId), paging, state.choices);
    },
  },
  {
    method: 'GET',
    path: '/accounts/:accountId',
    handler(ctx, state) {
      const account = state.store.getAccount(pathInteger(ctx.params, 'accountId'));
      if (account === undefined) throw notFound();
      return ok(accountDetailView(account, state.choices, nowSeconds(state)));
    },
  },
];
