// The scenarios of `conformance client`: what each asks the client to do (`--list`, the README), how long it may take,
// how its sandbox reads the spec's open points, what the sandbox does to the client on purpose, and the fixtures it
// hands over. The harness (scenario.ts) runs one sandbox per scenario from this table; nothing else names a scenario's
// behaviour.
import type { Choices } from '../reference/choices/index.js';
import { defaultFixtures } from '../reference/store.js';
import { UserError } from '../errors.js';
import { SCENARIOS, type ScenarioName } from './types.js';

/** What the sandbox does to the client beyond serving it (scenario.ts builds the middleware). */
type SandboxBehaviour = 'serve' | 'renew' | 'throttle' | 'webhooks';

export interface ScenarioSpec {
  name: ScenarioName;
  /** One line: what the client must do. */
  description: string;
  /** Default time limit; `--config` timeLimitSeconds overrides it per scenario. */
  timeLimitSeconds: number;
  /** The open points the sandbox reads its own way in this scenario. */
  choices: Partial<Choices>;
  behaviour: SandboxBehaviour;
  /** Handed over in CONFORMANCE_FIXTURES beside the ids every scenario gets. */
  extraFixtures: Record<string, unknown>;
}

/** The new first name the update scenario sets. */
const UPDATE_FIRST_NAME = 'Ada';
/** From /ussd/home: 4 "Portfolio", then 1 "My assets" (src/reference/ussd/home.ts, portfolio.ts; options numbered from 1, back last). */
const USSD_OPTIONS = [4, 1];
/** Where those options lead: a client that followed the `requestUrl`s as given ends with a GET of this path. */
const USSD_FINAL_PATH = '/ussd/assets';

/** Items are paged by offset (page=0,100,200 over 250 transactions): a client assuming page indices asks for page=1. */
const OFFSET_PAGES: Partial<Choices> = { pageMode: 'offset' };

export const SCENARIO_TABLE: readonly ScenarioSpec[] = [
  {
    name: 'token',
    description: 'obtain a token, read the customer (GET /customers/{customerId}), revoke the token',
    timeLimitSeconds: 20,
    choices: {},
    behaviour: 'serve',
    extraFixtures: {},
  },
  {
    name: 'read',
    description:
      'read the customer, their accounts, and all transactions of paginationCustomerId following meta.nextPage (item offsets, 100 a page); revoke',
    timeLimitSeconds: 20,
    choices: OFFSET_PAGES,
    behaviour: 'serve',
    extraFixtures: {},
  },
  {
    name: 'update',
    description: `set the first name of mutableCustomerId to fixtures.firstName ("${UPDATE_FIRST_NAME}") with PUT /customers; revoke`,
    timeLimitSeconds: 20,
    choices: {},
    behaviour: 'serve',
    extraFixtures: { firstName: UPDATE_FIRST_NAME },
  },
  {
    name: 'renew',
    description:
      "as read, but the sandbox ends the client's tokens after its 2nd request with a token (so that reading the transactions always needs a new one): get a new one and finish, without loops",
    timeLimitSeconds: 20,
    choices: OFFSET_PAGES,
    behaviour: 'renew',
    extraFixtures: {},
  },
  {
    name: 'throttle',
    description:
      'read the customer (first attempt answered 429, Retry-After: 1), then the accounts (every attempt 429): wait as told, at most 3 retries',
    timeLimitSeconds: 20,
    choices: {},
    behaviour: 'throttle',
    extraFixtures: {},
  },
  {
    name: 'ussd',
    description:
      'GET /ussd/home?customerId={customerId}, then follow the requestUrl of each option of fixtures.ussdOptions as given; revoke',
    timeLimitSeconds: 20,
    choices: {},
    behaviour: 'serve',
    extraFixtures: { ussdOptions: USSD_OPTIONS, ussdFinalPath: USSD_FINAL_PATH },
  },
  {
    name: 'webhooks',
    description:
      'register an https receiver (POST or PUT /webhooks), GET /webhooks/key, then accept valid deliveries and discard forged ones',
    timeLimitSeconds: 30,
    choices: {},
    behaviour: 'webhooks',
    extraFixtures: {},
  },
];

export function scenarioSpec(name: ScenarioName): ScenarioSpec {
  return SCENARIO_TABLE.find((s) => s.name === name)!;
}

/** CONFORMANCE_FIXTURES of a scenario: the seed's ids every scenario gets, then the scenario's own. */
export function scenarioFixtures(name: ScenarioName): Record<string, unknown> {
  const { customerId, accountId, paginationCustomerId, mutableCustomerId } = defaultFixtures();
  return { customerId, accountId, paginationCustomerId, mutableCustomerId, ...scenarioSpec(name).extraFixtures };
}

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}

/** `--scenario a,b` in the table's order, each once; an unknown name is a usage error that lists the names. */
export function parseScenarioList(text: string): ScenarioName[] {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.find((n) => !isScenarioName(n));
  if (unknown !== undefined || names.length === 0)
    throw new UserError(
      `--scenario: ${unknown === undefined ? 'no scenario named' : `unknown scenario "${unknown}"`}; the scenarios are ${SCENARIOS.join(', ')}`,
      2,
    );
  return SCENARIOS.filter((s) => names.includes(s));
}
