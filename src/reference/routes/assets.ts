// "Assets": GET /assets/{assetId}.
import type { RouteDef } from '../context.js';
import { pathInteger } from '../params.js';
import { notFound, ok } from '../respond.js';
import { assetView } from '../views.js';

export const assetRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/assets/:assetId',
    handler(ctx, state) {
      const asset = state.store.getAsset(pathInteger(ctx.params, 'assetId'));
      if (asset === undefined) throw notFound();
      return ok(assetView(asset, state.choices));
    },
  },
];
