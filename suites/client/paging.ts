// Client checks of area paging (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.paging',
  title: 'Client: paging',
  checks: [],
});
