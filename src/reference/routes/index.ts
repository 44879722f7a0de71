// Every endpoint of the reference server. A new resource is a new file here and one line in ALL_ROUTES.
import type { RouteDef } from '../context.js';
import { HttpError } from '../respond.js';
import { accountRoutes } from './accounts.js';
import { assetRoutes } from './assets.js';
import { customerRoutes } from './customers.js';
import { instrumentRoutes } from './instruments.js';
import { oauthRoutes } from './oauth.js';
import { transactionRoutes } from './transactions.js';
import { ussdRoutes } from './ussd.js';
import { webhookRoutes } from './webhooks.js';

/**
 * The status of a validation failure is not shown (REQ-ERR-05): the resource endpoints answer theirs (a 400 where they
 * are thrown) with the status `validationStatus` names.
 */
function withValidationStatus(route: RouteDef): RouteDef {
  return {
    ...route,
    async handler(ctx, state) {
      try {
        return await route.handler(ctx, state);
      } catch (e) {
        if (e instanceof HttpError && e.status === 400 && state.choices.validationStatus !== '400')
          throw new HttpError(Number(state.choices.validationStatus), e.message, e.headers);
        throw e;
      }
    },
  };
}

export const ALL_ROUTES: readonly RouteDef[] = [
  ...oauthRoutes,
  ...[...customerRoutes, ...accountRoutes, ...instrumentRoutes, ...assetRoutes, ...transactionRoutes].map(
    withValidationStatus,
  ),
  ...ussdRoutes,
  ...webhookRoutes,
];
