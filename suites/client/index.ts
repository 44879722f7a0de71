// The client pack: the checks `conformance client` runs, judged from what the client sent to the sandbox and how its
// webhook receiver answered (suites/client/kit.ts). Its session runs the client command, one sandbox per scenario.
import type { Pack } from '../../src/engine/index.js';
import {
  ClientTrafficSession,
  clientTrafficOf,
  observingPack,
  type ClientRunRecord,
  type JudgePack,
  type ObservedClient,
} from '../kit/index.js';
import { ClientSession } from './kit.js';
import requests from './requests.js';
import token from './token.js';
import paging from './paging.js';
import renew from './renew.js';
import throttle from './throttle.js';
import ussd from './ussd.js';
import webhooks from './webhooks.js';

export const clientSuites = [requests, token, paging, renew, throttle, ussd, webhooks];

/** Where the run keeps an exchange every report shows (the HAR, the JSON report's sessionExchanges). */
type ExchangeSink = Parameters<Pack['openSession']>[2];

/**
 * The pack for one client run: `runScenarios` runs the command against each selected scenario and records it, and
 * hands every exchange it saw to `record`, so that the reports hold the client's whole traffic, not only what a
 * finding cites.
 */
export function clientPack(runScenarios: (record: ExchangeSink) => Promise<ClientRunRecord>): Pack {
  return {
    suites: clientSuites,
    sharedStates: [],
    stateChangedBy: () => undefined,
    openSession: (_client, _target, record) => new ClientSession(() => runScenarios(record)),
    observesOnly: true,
  };
}

/** Why a client check without `observe` is skipped in a judge run. */
export const NOT_EXERCISED_CLIENT =
  'not exercised: it needs a scenario of `conformance client` (what the sandbox does on purpose, the task the client is given), which observed traffic does not show';

/**
 * The client checks over observed traffic (issue 30: `conformance judge --side client`, `conformance proxy`): `traffic`
 * is the client's exchanges with the target (src/traffic/scope.ts, toTarget), `baseUrl` the target's, `client` what is
 * known of the client (its id and key: a target of the config). Checks that can judge a request in traffic run their
 * `observe`; the others are skipped as not exercised (NOT_EXERCISED_CLIENT).
 */
export function clientJudgePack(
  traffic: Parameters<typeof clientTrafficOf>[0],
  options: {
    baseUrl: string;
    redactor: Parameters<typeof clientTrafficOf>[2];
    client?: ObservedClient;
    /** The server's webhook deliveries to the client's receiver (`conformance proxy --receiver`). */
    deliveries?: Parameters<typeof clientTrafficOf>[0];
  },
): JudgePack {
  const observed = clientTrafficOf(traffic, options.baseUrl, options.redactor, options.client);
  return observingPack(
    clientSuites,
    () => new ClientTrafficSession(observed, options.deliveries, options.redactor),
    NOT_EXERCISED_CLIENT,
  );
}
