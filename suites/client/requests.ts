// Client checks of area requests (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.requests',
  title: 'Client: requests',
  checks: [],
});
