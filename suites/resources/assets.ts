// Suite `resources`, area `assets`: GET /assets/{assetId}: the asset read.
import { getByIdCheck } from './helpers/endpoint-checks.js';
import { ASSET_BY_ID } from './helpers/endpoints.js';

export const assetsGet = getByIdCheck('resources.assets.get', ASSET_BY_ID);
