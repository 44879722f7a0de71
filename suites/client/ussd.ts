// Client checks of area ussd (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.ussd',
  title: 'Client: ussd',
  checks: [],
});
