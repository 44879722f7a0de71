// "Transactions": GET /transactions?customerId= and GET /transactions/{transactionId}.
import type { RouteDef } from '../context.js';
import { paginate, parsePaging } from '../paging.js';
import { pathInteger, queryInteger } from '../params.js';
import { notFound, ok, okList } from '../respond.js';

export const transactionRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/transactions',
    handler(ctx, state) {
      const customerId = queryInteger(ctx.query, 'customerId');
      const paging = parsePaging(ctx.query, state.choices);
      if (!state.store.hasCustomer(customerId)) throw notFound();
      const page = paginate(state.store.transactionList(customerId), paging, state.choices);
      return okList(page.items, page.meta);
    },
  },
  {
    method: 'GET',
    path: '/transactions/:transactionId',
    handler(ctx, state) {
      const transaction = state.store.getTransaction(pathInteger(ctx.params, 'transactionId'));
      if (transaction === undefined) throw notFound();
      return ok(transaction);
    },
  },
];
