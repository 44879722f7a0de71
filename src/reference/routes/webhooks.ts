// "Webhooks": placeholder, filled in by the webhook work.
import type { RouteDef } from '../context.js';

export const webhookRoutes: RouteDef[] = [];
