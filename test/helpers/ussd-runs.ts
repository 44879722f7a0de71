// The `ussd` suite alone against the reference server, for test/suites/ussd/reference-server.test.ts and its sweep
// (reference-server.sweep.test.ts): one run per server set-up in a test file, since several tests read the same run (a
// fault's catch in the fault table and its finding's wording in another test; a reading alone and the clean server,
// when the reading is the variant's own), and assertions only read a result.
import { afterEach } from 'vitest';
import { pack } from '../../suites/index.js';
import ussd from '../../suites/ussd/index.js';
import { runChecks, type RunFlags, type RunResult } from '../../src/engine/index.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { resolveChoices, type Choices, type VariantName } from '../../src/reference/choices/index.js';
import type { Middleware } from '../../src/reference/context.js';

type ServerOptions = {
  variant?: VariantName;
  faults?: string[];
  choices?: Partial<Choices>;
  middleware?: Middleware[];
};

type UssdRun = ServerOptions & {
  flags?: Partial<RunFlags>;
  caps?: { maxViews?: number; maxDepth?: number };
  grep?: string;
  /** The customer the suite walks as (the target's fixture customerId), when not the server's own. */
  customerId?: number;
};

export interface UssdRuns {
  /**
   * The suite against a server of `options`: a set-up is its variant, resolved choices, faults, flags, caps, selection
   * and customer, run once per file; a run with middleware is the test's own. A test run alone (`-t`) makes the run itself.
   */
  runUssd(options?: UssdRun): Promise<RunResult>;
  /** A reference server of the test's own, stopped after the test. */
  local(options?: ServerOptions): Promise<LocalTarget>;
  /** Something else to stop after the test (after what was started later). */
  stopAfter(stop: () => Promise<void>): void;
}

/** Registers the stopping of the servers with the calling test file. */
export function ussdRuns(): UssdRuns {
  let stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops = [];
  });
  const stopAfter = (stop: () => Promise<void>) => void stops.push(stop);

  async function local(options: ServerOptions = {}): Promise<LocalTarget> {
    const l = await startLocalTarget(options);
    stopAfter(() => l.stop());
    return l;
  }

  async function runOnce(options: UssdRun): Promise<RunResult> {
    const l = await local(options);
    const { customerId } = options;
    return runChecks({
      pack,
      target: customerId === undefined ? l.target : { ...l.target, fixtures: { ...l.target.fixtures, customerId } },
      suites: [ussd],
      failOn: 'should',
      flags: options.flags,
      suiteOptions: { ussd: options.caps ?? {} },
      selection: options.grep ? { grep: options.grep } : {},
    });
  }

  const runs = new Map<string, Promise<RunResult>>();
  function runUssd(options: UssdRun = {}): Promise<RunResult> {
    if (options.middleware) return runOnce(options);
    const { variant, faults = [], choices, flags = {}, caps = {}, grep = null, customerId = null } = options;
    const key = JSON.stringify([
      variant ?? 'strict',
      resolveChoices(variant, choices),
      faults,
      flags,
      caps,
      grep,
      customerId,
    ]);
    let result = runs.get(key);
    if (!result) runs.set(key, (result = runOnce(options)));
    return result;
  }

  return { runUssd, local, stopAfter };
}
