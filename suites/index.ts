// The registry of suites, in the order reports list them. The one place the engine learns which suites exist.
import type { SuiteDefinition } from '../src/engine/check.js';
import auth from './auth.js';
import signing from './signing.js';
import pagination from './pagination.js';
import resources from './resources.js';
import ussd from './ussd/index.js';
import webhooks from './webhooks/index.js';

export const suites: SuiteDefinition[] = [auth, signing, pagination, resources, ussd, webhooks];
