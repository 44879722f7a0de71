// The Investment API's pack: its suites in the order reports list them, the state on the target that checks share, and
// the token session every run holds. The one place the engine learns which suites exist.
import type { Pack } from '../src/engine/index.js';
import { putBackEntry, Session, SHARED_STATES, TURN_STATES, SUITE_ORDER_STATES, stateChangedBy } from './kit/index.js';
import auth from './auth/index.js';
import signing from './signing/index.js';
import pagination from './pagination/index.js';
import resources from './resources/index.js';
import ussd from './ussd/index.js';
import webhooks from './webhooks/index.js';

export const pack: Pack = {
  suites: [auth, signing, pagination, resources, ussd, webhooks],
  sharedStates: SHARED_STATES,
  turnStates: TURN_STATES,
  suiteOrderStates: SUITE_ORDER_STATES,
  stateChangedBy,
  openSession: (client, target, sink) =>
    new Session(client, target.clientSecret, sink, target.revoke ? { revokeBody: target.revoke.body } : {}),
  // What a killed run left in the restore journal: put back by the next run, or `conformance restore`.
  putBack: putBackEntry,
};

export const suites = pack.suites;
