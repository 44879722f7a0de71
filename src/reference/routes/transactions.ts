// "Transactions": GET /transactions?customerId= and GET /transactions/{transactionId}.
import type { RouteDef } from '../context.js';
import { listReply, parsePaging } from '../paging.js';
import { pathInteger, queryInteger } from '../params.js';
import { notFound, ok } from '../respond.js';
import { transactionView } from '../views.js';
import { unknownCustomerList } from './accounts.js';

export const transactionRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/transactions',
    handler(ctx, state) {
      const customerId = queryInteger(ctx.query, 'customerId');
      const paging = parsePaging(ctx.query, state.choices);
      if (!state.store.hasCustomer(customerId)) return unknownCustomerList(paging, state);
      return listReply(state.store.transactionList(customerId), paging, state.choices, (t) =>
        transactionView(t, state.choices),
      );
    },
  },
  {
    method: 'GET',
    path: '/transactions/:transactionId',
    handler(ctx, state) {
      const transaction = state.store.getTransaction(pathInteger(ctx.params, 'transactionId'));
      if (transaction === undefined) throw notFound();
      return ok(transactionView(transaction, state.choices));
    },
  },
];
