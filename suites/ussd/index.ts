// Suite `ussd`: crawl the menu graph the way a phone user would, and check every view and every link (spec "USSD
// view", "USSD views"). Menu texts, depth and numbering are not known in advance, so the checks judge only what the
// spec states; the crawl itself is suites/ussd/helpers/crawler.ts, the rules are with the area that judges by them
// (suites/ussd/<area>.ts) or, read by several areas, in suites/ussd/helpers/menu-graph.ts.
//
// One crawl per run, shared by every check: it lives in the suite's state, which its setup makes for each run.
// The check that happens to start it would otherwise own hundreds of recorded exchanges, so they are taken off it and
// kept with the crawl; a check that finds a problem attaches the exchanges that show it, and only those.
import { defineSuite, type RunFlags } from '../../src/engine/index.js';
import { crawlChecks } from './crawl.js';
import { viewChecks } from './view.js';
import { optionsChecks } from './options.js';
import { linksChecks } from './links.js';
import { requestsChecks } from './requests.js';
import { customerChecks } from './customer.js';
import { infoChecks } from './info.js';
import { paramsChecks } from './params.js';
import { flowChecks } from './flow.js';
import { lifecycle } from './helpers/shared-crawl.js';

// With --allow-mutations the crawl and the order check place orders, which may change the customer's assets,
// transactions and requests while other checks read them: each check of the suite then runs alone.
export default defineSuite({
  name: 'ussd',
  title: 'USSD: the menu graph, every view and every link',
  alone: (flags: RunFlags) => flags.allowMutations,
  ...lifecycle,
  checks: [
    ...crawlChecks,
    ...viewChecks,
    ...optionsChecks,
    ...linksChecks,
    ...requestsChecks,
    ...customerChecks,
    ...infoChecks,
    ...paramsChecks,
    ...flowChecks,
  ],
});
