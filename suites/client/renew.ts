// Client checks of area renew (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.renew',
  title: 'Client: renew',
  checks: [],
});
