// Client checks of area webhooks (suites/client/): judged from the recorded traffic of the scenarios (kit.ts).
import { defineSuite } from '../../src/engine/index.js';

export default defineSuite({
  name: 'client.webhooks',
  title: 'Client: webhooks',
  checks: [],
});
