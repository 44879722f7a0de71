// Client checks of area throttle (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.throttle',
  title: 'Client: throttle',
  checks: [],
});
