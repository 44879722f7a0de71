// Client checks of area token (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.token',
  title: 'Client: token',
  checks: [],
});
