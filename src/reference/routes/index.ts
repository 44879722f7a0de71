// Every endpoint of the reference server. A new resource is a new file here and one line in ALL_ROUTES.
import type { RouteDef } from '../context.js';
import { accountRoutes } from './accounts.js';
import { assetRoutes } from './assets.js';
import { customerRoutes } from './customers.js';
import { instrumentRoutes } from './instruments.js';
import { oauthRoutes } from './oauth.js';
import { transactionRoutes } from './transactions.js';
import { ussdRoutes } from './ussd.js';
import { webhookRoutes } from './webhooks.js';

export const ALL_ROUTES: readonly RouteDef[] = [
  ...oauthRoutes,
  ...customerRoutes,
  ...accountRoutes,
  ...instrumentRoutes,
  ...assetRoutes,
  ...transactionRoutes,
  ...ussdRoutes,
  ...webhookRoutes,
];
