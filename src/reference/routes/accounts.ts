// "Accounts": GET /accounts?customerId= and GET /accounts/{accountId}.
import type { RouteDef } from '../context.js';
import { paginate, parsePaging } from '../paging.js';
import { pathInteger, queryInteger } from '../params.js';
import { notFound, ok, okList } from '../respond.js';

export const accountRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/accounts',
    handler(ctx, state) {
      const customerId = queryInteger(ctx.query, 'customerId');
      const paging = parsePaging(ctx.query, state.choices);
      if (!state.store.hasCustomer(customerId)) throw notFound();
      const page = paginate(state.store.accountList(customerId), paging, state.choices);
      return okList(page.items, page.meta);
    },
  },
  {
    method: 'GET',
    path: '/accounts/:accountId',
    handler(ctx, state) {
      const account = state.store.getAccount(pathInteger(ctx.params, 'accountId'));
      if (account === undefined) throw notFound();
      return ok(account);
    },
  },
];
