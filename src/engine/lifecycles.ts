// The suites' lives in one run (setup → state, teardown → clean-up lines) and what their setups and teardowns see of
// the run: its token, its own exchanges and notes, the restore journal.
import type { SignedClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { ResolvedTarget } from '../config/types.js';
import type { SuiteDefinition } from './check.js';
import type { RunSession, SuiteRun } from './session.js';
import type { RunFlags } from './types.js';
import type { RestoreJournal, RunJournal } from '../journal/journal.js';
import { recordedDelivery } from '../traffic/delivery.js';

/** What every suite's setup and teardown share of one run. */
export interface RunParts {
  target: ResolvedTarget;
  flags: RunFlags;
  session: RunSession;
  client: SignedClient;
  suiteOptions: SuiteSettings | undefined;
  sessionExchanges: Exchange[];
  /** The webhook deliveries a suite's receiver got, as recorded (RunResult.deliveries). */
  deliveries: Exchange[];
  runNotes: string[];
  journal: RestoreJournal;
}

/** Settings of suites that declare some (SuiteDefinition.options), by suite name: `{ ussd: { maxViews: 100 } }`. */
export type SuiteSettings = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** The suites' states in one run: set up in order, torn down in reverse, each at most once. */
export class Lifecycles {
  private readonly states = new Map<string, unknown>();
  private readonly setUp: SuiteDefinition[] = [];
  private readonly runs: Map<string, SuiteRun>;

  /** A suite's settings are checked here, before anything is sent: a setting it does not declare throws. */
  constructor(
    private readonly suites: readonly SuiteDefinition[],
    parts: RunParts,
  ) {
    this.runs = new Map(suites.map((s) => [s.name, suiteRunOf(s, parts)]));
  }

  /** Sets every suite up, in order; a setup that throws ends it (teardownAll then tears down those set up before). */
  async setupAll(): Promise<void> {
    for (const suite of this.suites) {
      const state = suite.setup ? await suite.setup(this.runOf(suite.name)) : undefined;
      this.states.set(suite.name, state);
      this.setUp.push(suite);
    }
  }

  runOf(suite: string): SuiteRun {
    return this.runs.get(suite)!;
  }

  stateOf(suite: string): unknown {
    return this.states.get(suite);
  }

  /** Every suite's teardown, last set up first; what they could not put back, as clean-up lines. Never throws. */
  async teardownAll(): Promise<string[]> {
    const lines: string[] = [];
    for (const suite of this.setUp.splice(0).reverse()) {
      if (!suite.teardown) continue;
      try {
        lines.push(...(await suite.teardown(this.states.get(suite.name), this.runOf(suite.name))));
      } catch (e) {
        lines.push(
          `${suite.name}: the suite's clean-up broke (${(e as Error)?.message ?? String(e)}); check by hand what its checks changed`,
        );
      }
    }
    return lines;
  }
}

/** What a suite's setup and teardown see of the run. */
function suiteRunOf(suite: SuiteDefinition, run: RunParts): SuiteRun {
  const { target, client, session } = run;
  return {
    target: { name: target.name, baseUrl: target.baseUrl, clientId: target.clientId, keyId: target.keyId },
    config: target,
    fixtures: target.fixtures,
    flags: run.flags,
    options: optionsOf(suite, run.suiteOptions),
    session,
    send: runSender(session, client, run.sessionExchanges, run.runNotes),
    note: (text) => run.runNotes.push(client.redactor.text(text)),
    journal: run.journal,
    received: (deliveries) => run.deliveries.push(...deliveries.map((d) => recordedDelivery(d, client.redactor))),
  };
}

/** Sends with the run's token, recording the exchange with the run's own (a suite's setup and teardown, the journal's replay). */
export function runSender(
  session: RunSession,
  client: SignedClient,
  sessionExchanges: Exchange[],
  runNotes: string[],
): SuiteRun['send'] {
  return (spec) =>
    session.withToken(
      (token) => client.send({ ...spec, token }, (e) => sessionExchanges.push(e)),
      (note) => runNotes.push(note),
    );
}

/** The run's notes of a replay of the restore journal: what was put back, what could not be, what was left alone. */
export function replayNotes(r: Awaited<ReturnType<RunJournal['replay']>>): string[] {
  return [
    ...(r.putBack.length > 0
      ? [`restore journal: put back what an earlier run left (it was killed): ${r.putBack.join('; ')}`]
      : []),
    ...r.failed.map(
      (f) =>
        `restore journal: ${f.what}, which an earlier run left, could not be put back (${f.problem}); restore it by hand: ${f.byHand}`,
    ),
    ...r.busy.map((b) => `restore journal: ${b} belongs to a run still going on this machine: left alone`),
  ];
}

/** A suite's settings: its defaults, with what the run set (a setting it does not declare is a mistake of the caller's). */
function optionsOf(suite: SuiteDefinition, given: SuiteSettings | undefined): Record<string, number> {
  const declared = suite.options ?? {};
  const set = given?.[suite.name] ?? {};
  for (const name of Object.keys(set))
    if (!(name in declared)) throw new Error(`suite ${suite.name} has no setting "${name}"`);
  return Object.fromEntries(Object.entries(declared).map(([name, o]) => [name, set[name] ?? o.default]));
}
