// "USSD views": placeholder, filled in by the USSD work.
import type { RouteDef } from '../context.js';

export const ussdRoutes: RouteDef[] = [];
