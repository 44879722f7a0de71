import type { SignedClient, RequestSpec, HttpResponse, PreparedRequest } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { Fixtures, FixtureName } from '../config/types.js';
import type { AlsoSeen, CheckInfo, Finding, RunFlags, SharedExchange, SkipRemedy } from './types.js';
import { CheckFailed, CheckSkipped } from './outcomes.js';
import { UndeclaredSharedState } from '../errors.js';
import type { RunSession } from './session.js';
import { memoryJournal, type RestoreJournal } from '../journal/journal.js';

/** Everything a check's context is made of; the engine builds one per check. */
export interface CheckContextParts {
  check: CheckInfo;
  target: { name: string; baseUrl: string; clientId: string; keyId: string };
  credentials: { clientId: string; clientSecret: string };
  fixtures: Fixtures;
  flags: RunFlags;
  session: RunSession;
  signal: AbortSignal;
  /** Aborted when the check's time limit (or the run's budget) is reached; `signal` only after the grace period that follows. */
  timeUp?: AbortSignal;
  client: SignedClient;
  /** The shared state the check declared (CheckDefinition.uses): the only state its requests may change. */
  uses: readonly string[];
  /** The pack's reading of which shared state a request changes. */
  stateChangedBy: (method: string, path: string) => string | undefined;
  /** The state its suite's setup returned for this run (undefined without a setup). */
  state: unknown;
  /** Its suite's settings, defaults filled in. */
  options: Readonly<Record<string, number>>;
  /** Records a set-up problem of the check's suite for the run (one per suite and fix: the same fix is the same problem). */
  setupProblem?: (problem: SetupFinding) => void;
  /** The run's restore journal (kept in memory when absent). */
  journal?: RestoreJournal;
  /** Gives the check's slot to another check while a wait that sends nothing is pending (src/engine/schedule.ts). */
  idle?: <T>(wait: Promise<T>) => Promise<T>;
}

/** A set-up problem as a check states it; the run adds its suite and the checks it stopped (SetupProblem). */
export interface SetupFinding {
  /** One line: what went wrong, as observed. */
  problem: string;
  /** One line: the exact step that fixes it. */
  fix: string;
}

/** What a check body receives. Everything it sends is recorded against the check. */
export class CheckContext {
  readonly observations: string[] = [];
  /** How many subjects the check judged (judged()), and the first few of them by name. */
  private judgedCount = 0;
  private readonly judgedNames: string[] = [];
  /** What the check saw that other checks own, one entry per owner and requirements (see alsoSee). */
  private readonly seen = new Map<string, AlsoSeen & { times: number }>();
  readonly exchanges: Exchange[] = [];
  /** The exchanges another check sent that this one judged (judgedShared), by seq. */
  private readonly shared = new Map<number, string>();
  readonly check: CheckInfo;
  readonly target: CheckContextParts['target'];
  readonly credentials: CheckContextParts['credentials'];
  readonly fixtures: Fixtures;
  readonly flags: RunFlags;
  readonly session: RunSession;
  readonly signal: AbortSignal;
  /**
   * Aborted when the check's time is up (its limit, or the run's budget). The body keeps running for a grace period,
   * network still open, to put back what it changed; only then does `signal` cut its requests.
   */
  readonly timeUp: AbortSignal;
  readonly state: unknown;
  readonly options: Readonly<Record<string, number>>;
  /** The run's restore journal: a change the check will put back is written there before it is made. */
  readonly journal: RestoreJournal;
  private readonly client: SignedClient;
  private readonly uses: readonly string[];
  private readonly stateChangedBy: CheckContextParts['stateChangedBy'];
  private readonly recordSetupProblem: NonNullable<CheckContextParts['setupProblem']>;
  private readonly giveSlot: NonNullable<CheckContextParts['idle']>;

  constructor(parts: CheckContextParts) {
    ({
      check: this.check,
      target: this.target,
      credentials: this.credentials,
      fixtures: this.fixtures,
      flags: this.flags,
      session: this.session,
    } = parts);
    ({
      signal: this.signal,
      state: this.state,
      options: this.options,
      client: this.client,
      uses: this.uses,
      stateChangedBy: this.stateChangedBy,
    } = parts);
    this.timeUp = parts.timeUp ?? new AbortController().signal;
    this.recordSetupProblem = parts.setupProblem ?? (() => undefined);
    this.journal = parts.journal ?? memoryJournal();
    this.giveSlot = parts.idle ?? ((wait) => wait);
  }

  /**
   * Awaits a wait that sends nothing (a webhook delivery, an absence window) without holding one of the run's slots:
   * other checks send meanwhile. The check keeps the shared state it declared.
   */
  idle<T>(wait: Promise<T>): Promise<T> {
    return this.giveSlot(wait);
  }

  /**
   * Sends a request with the run's token unless the spec sets `token` (null: none). Only with the run's token may a
   * 401 lead to a new token and a second try (RunSession.withToken): a token a check sets is the one it judges.
   */
  async send(spec: RequestSpec): Promise<HttpResponse> {
    const state = this.mayChange(spec.method, spec.path);
    const send = (token: string | null) =>
      this.client.send(
        { ...spec, token, signal: spec.signal ?? this.signal },
        (e) => this.exchanges.push(e),
        this.check.id,
      );
    const token = spec.token;
    if (token === undefined) return this.session.withToken(send, (note) => this.observe(note));
    return state !== undefined ? this.session.sendChanging(state, () => send(token)) : send(token);
  }

  /** When the run last sent `method` to `path` (any check, or the session), epoch ms; undefined when it never did. */
  lastSent(method: string, path: string): number | undefined {
    return this.client.lastSent(method, path);
  }

  /** Sends a request built with `prepare` and altered by hand. */
  sendPrepared(
    req: PreparedRequest,
    limits: { timeoutMs?: number; maxBodyBytes?: number } = {},
  ): Promise<HttpResponse> {
    this.mayChange(req.method, req.url);
    return this.client.sendPrepared(
      req,
      { ...limits, signal: this.signal },
      (e) => this.exchanges.push(e),
      this.check.id,
    );
  }

  /**
   * Builds and signs `spec` with the run's token and sends `shape` of it (a copy, so the signed request can be altered
   * later), recovering as `send` does: when a 401 shows that the server ended the run's token, a new one is obtained and
   * the request prepared and sent again. Returns the signed request that was answered, and the answer.
   */
  async prepareAndSend(
    spec: RequestSpec,
    shape: (req: PreparedRequest) => PreparedRequest,
  ): Promise<{ prepared: PreparedRequest; res: HttpResponse }> {
    let prepared: PreparedRequest | undefined;
    const res = await this.session.withToken(
      async (token) => {
        prepared = await this.client.prepare({ ...spec, token });
        return this.sendPrepared(shape(prepared));
      },
      (note) => this.observe(note),
    );
    return { prepared: prepared!, res };
  }

  /** Builds and signs a request with the run's token (unless `token` is set) without sending it. */
  async prepare(spec: RequestSpec): Promise<PreparedRequest> {
    const token = spec.token === undefined ? await this.session.token() : spec.token;
    return this.client.prepare({ ...spec, token });
  }

  /**
   * Refuses a request that may change shared state the check did not declare: run alongside other checks, it would
   * change what they read. A bug of the check's, reported as its error. Returns the state the request may change.
   */
  private mayChange(method: string, pathOrUrl: string): string | undefined {
    const base = this.target.baseUrl.replace(/\/+$/, '');
    const path = pathOrUrl.startsWith(base) ? pathOrUrl.slice(base.length) : pathOrUrl;
    const state = this.stateChangedBy(method, path);
    if (state !== undefined && !this.uses.includes(state)) {
      throw new UndeclaredSharedState(
        `${method} ${path} may change shared state "${state}", which check ${this.check.id} does not declare in \`uses\``,
      );
    }
    return state;
  }

  /** A fixture id, or a skip naming the missing fixture. */
  fixture(name: FixtureName): number {
    const value = this.fixtures[name];
    if (value === undefined)
      this.skip(`fixture "${name}" is not configured for this target (fixtures.${name} in the config)`, {
        kind: 'fixture',
        fixture: name,
      });
    return value;
  }

  fail(message: string, details: Omit<Finding, 'message' | 'exchangeSeq'> & { exchange?: Exchange } = {}): never {
    const { exchange, ...rest } = details;
    throw new CheckFailed({ message, ...rest, ...(exchange ? { exchangeSeq: exchange.seq } : {}) });
  }

  /** Ends the check as skipped; `remedy` when a setting of the run would let it run (the verdict says what to do). */
  skip(reason: string, remedy?: SkipRemedy): never {
    throw new CheckSkipped(reason, remedy);
  }

  /**
   * Records a defect this check met but another check owns ("one cause, one failure"): never a failure here while the
   * owner fails for it. Should the owner not (its answers were right, or it did not run), the engine fails this check
   * for it instead, when this check cites one of `requirements`; so a defect seen anywhere is judged somewhere.
   * The same owner and requirements seen again count once, with how many answers showed it.
   */
  alsoSee(entry: { requirements: readonly string[]; ownedBy: string; message: string; exchange?: Exchange }): void {
    const key = `${entry.ownedBy} ${[...entry.requirements].sort().join(',')}`;
    const known = this.seen.get(key);
    if (known) {
      known.times++;
      return;
    }
    this.seen.set(key, {
      requirements: [...entry.requirements],
      ownedBy: entry.ownedBy,
      message: entry.message,
      ...(entry.exchange ? { exchangeSeq: entry.exchange.seq } : {}),
      times: 1,
    });
  }

  /** The defects seen for other checks, each once, saying how many answers showed it. */
  get alsoSeen(): AlsoSeen[] {
    return [...this.seen.values()].map(({ times, ...entry }) =>
      times > 1
        ? { ...entry, message: `${entry.message} (and in ${times - 1} more answer${times > 2 ? 's' : ''})` }
        : entry,
    );
  }

  /**
   * Ends the check as skipped by a problem of the run's set-up, not of the server (e.g. the server does not trust the
   * webhook receiver): the run states the problem once, with its fix, and the verdict counts the check's requirements
   * not exercised, never failed. Every check it stops calls this; a suite may meet several, each stated once (the same
   * fix is the same problem: its first words are kept, and it lists every check it stopped).
   */
  setupProblem(finding: SetupFinding): never {
    this.recordSetupProblem(finding);
    this.skip(`set-up problem: ${finding.problem}`, { kind: 'setup', suite: this.check.suite });
  }

  /**
   * Records that the check judged a subject (an answer, a record, a delivery, a link, a view…) against its
   * requirements: called for each one, when it has been judged, by the check itself (no assertion helper counts for
   * it, since a list answer judged is not its records judged). A check that ends without failing and judged nothing
   * saw nothing to judge: it is skipped, never passed.
   */
  judged(subject: string, count = 1): void {
    this.judgedCount += count;
    if (this.judgedNames.length < 5 && !this.judgedNames.includes(subject)) this.judgedNames.push(subject);
  }

  /**
   * Forgets what an earlier attempt of the check judged: the engine calls it before each attempt (a pack may run a
   * check's body once more, RunSession.runCheck), so that a result counts the subjects of the attempt it reports.
   */
  startAttempt(): void {
    this.judgedCount = 0;
    this.judgedNames.length = 0;
  }

  /** What the check judged: how many subjects, and the first few by name. */
  get subjectsJudged(): { count: number; names: readonly string[] } {
    return { count: this.judgedCount, names: this.judgedNames };
  }

  /**
   * Records that the check judged an exchange another check of the run sent (work done once per run and judged by
   * each), so that the reports point a reviewer at it; the check's own exchanges are not recorded again.
   */
  judgedShared(exchange: Exchange): void {
    if (exchange.checkId !== this.check.id && !this.exchanges.includes(exchange))
      this.shared.set(exchange.seq, exchange.checkId);
  }

  /** The exchanges of other checks this one judged, in the order of the run, but those since cited as its own. */
  get sharedExchanges(): SharedExchange[] {
    const own = new Set(this.exchanges.map((e) => e.seq));
    return [...this.shared]
      .filter(([seq]) => !own.has(seq))
      .sort(([a], [b]) => a - b)
      .map(([seq, sentBy]) => ({ seq, sentBy }));
  }

  /** Records an observation (INFO checks) shown in every report. */
  observe(text: string): void {
    this.observations.push(text);
  }
}
