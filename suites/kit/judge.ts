// Judging traffic the suite did not send (issue 30): a pack made from a pack of server checks, which runs each check's
// `observe` over the answers its session holds (a HAR read by `conformance judge`, what `conformance proxy` saw) and
// sends nothing. Checks without `observe` need requests of their own: the pack leaves them out, and says which.
import {
  CheckFailed,
  type CheckContext,
  type CheckDefinition,
  type Pack,
  type SuiteDefinition,
} from '../../src/engine/index.js';
import { ObservingSession } from './observing-session.js';
import type { ClientTraffic } from '../../src/client/types.js';
import type { HttpResponse } from '../../src/http/client.js';
import type { Exchange } from '../../src/http/exchange.js';
import { Redactor } from '../../src/http/redact.js';
import type { TrafficExchange } from '../../src/traffic/exchange.js';
import { OBSERVED, observedResponse, recordedExchange } from '../../src/traffic/responses.js';

/** The judge pack's session: it holds the traffic, given whole before the run. */
class TrafficSession extends ObservingSession {
  constructor(
    readonly traffic: readonly TrafficExchange[],
    readonly redactor: Redactor,
    /** The server's webhook deliveries the traffic holds (a proxy session's, a HAR's), numbered with the traffic. */
    readonly deliveries: readonly TrafficExchange[] = [],
  ) {
    super();
  }

  /** Every answer of the traffic a check can read, in the traffic's order (see observedResponse). */
  answers(): HttpResponse[] {
    return this.traffic.flatMap((t) => observedResponse(t, this.redactor) ?? []);
  }

  open(): Promise<void> {
    return Promise.resolve();
  }
}

/** Every answer of the traffic a check can read, in the traffic's order; none is a skip here (see observedAnswers). */
export function observedTraffic(ctx: CheckContext): HttpResponse[] {
  return (ctx.session as TrafficSession).answers();
}

/**
 * A webhook delivery the traffic holds (`conformance proxy --receiver`, or a run's --har: src/traffic/delivery.ts): the
 * server's request as it arrived at the URL it was sent to (the one it signed), and the answer of the receiver (the
 * client's, the proxy forwarding it; the run's own) (none: not reached).
 */
export interface ObservedDelivery {
  method: string;
  url: string;
  headers: ReadonlyArray<[string, string]>;
  body: Buffer;
  /** Whether the body was captured whole; a delivery without it cannot be verified. */
  captured: boolean;
  /** Whether the source masked its Signature's bytes (`[redacted]`): the signature cannot be verified, only read. */
  masked: boolean;
  /** When it reached the proxy (milliseconds since the epoch), when the traffic says. */
  arrivedAt?: number;
  /** The status the client's receiver answered with; undefined when it was not reached. */
  answered?: number;
  /** The delivery as the reports keep it, for a finding to cite (see cite). */
  exchange: Exchange;
}

/** The webhook deliveries the traffic holds, in order (a HAR holds those it marks: src/traffic/delivery.ts). */
export function observedDeliveries(ctx: CheckContext): ObservedDelivery[] {
  // The server's judge pack's session, the client's (ClientTrafficSession) or both's: each holds them so.
  const session = ctx.session as Partial<Pick<TrafficSession, 'deliveries' | 'redactor'>>;
  const deliveries = session.deliveries ?? [];
  const redactor = session.redactor ?? new Redactor();
  return deliveries.map((t) => ({
    method: t.request.method,
    url: t.request.url,
    headers: t.request.headers,
    body: Buffer.from(t.request.body),
    captured: t.request.bodyState !== 'not-captured',
    masked: t.redacted?.request?.includes('signature') === true,
    // The run's own receiver's answer (a run's --har) is not a receiver's judgement of the delivery: left out.
    ...(t.response !== undefined && t.answeredByRun !== true ? { answered: t.response.status } : {}),
    ...(t.startedAt !== undefined && !Number.isNaN(Date.parse(t.startedAt))
      ? { arrivedAt: Date.parse(t.startedAt) }
      : {}),
    exchange: recordedExchange(t, redactor),
  }));
}

/** The answers of the traffic `which` takes; a skip, naming what was looked for, when there are none. */
export function observedAnswers(
  ctx: CheckContext,
  what: string,
  which: (res: HttpResponse) => boolean = () => true,
): HttpResponse[] {
  const chosen = observedTraffic(ctx).filter(which);
  if (chosen.length === 0) ctx.skip(`the traffic holds no ${what}`);
  return chosen;
}

/**
 * The path of an observed answer's request relative to the target's base URL, without its query; undefined for a
 * request outside the base (another API on the same host).
 */
export function observedPath(ctx: CheckContext, res: HttpResponse): string | undefined {
  const base = new URL(ctx.target.baseUrl);
  const url = new URL(res.exchange.request.url);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)))
    return undefined;
  return url.pathname.slice(prefix.length) || '/';
}

/** How a finding names an observed answer: its exchange's number, method and path below the base URL (else its URL). */
export function observedLine(ctx: CheckContext, res: HttpResponse): string {
  const { seq, request } = res.exchange;
  return `#${seq} ${request.method} ${observedPath(ctx, res) ?? request.url}`;
}

/**
 * Adds an exchange a check judges but did not send (observed traffic, a client's recorded request) to the check's own,
 * once, so that the reports show it with the finding that cites it; returns it, for `ctx.fail(…, { exchange })`.
 */
export function cite(ctx: CheckContext, subject: { exchange: Exchange }): Exchange {
  if (!ctx.exchanges.some((e) => e.seq === subject.exchange.seq)) ctx.exchanges.push(subject.exchange);
  return subject.exchange;
}

/** Whether an exchange is one of observed traffic (nobody of this run sent it), which keeps its label when cited. */
export function isObserved(exchange: Exchange): boolean {
  return exchange.checkId === OBSERVED;
}

/** Why a check that needs requests of its own is skipped in a judge run. */
export const NOT_EXERCISED = 'not exercised: it needs requests of its own, which recorded traffic does not hold';

/**
 * Judges one observed answer with `judge`, the rule a check applies to the answers to its own requests: a failure that
 * names this answer's exchange cites it (see cite), since the kit's rules name the exchange without adding it.
 */
export function judgeObserved<T>(ctx: CheckContext, res: HttpResponse, judge: () => T): T {
  try {
    return judge();
  } catch (e) {
    if (e instanceof CheckFailed && e.finding.exchangeSeq === res.exchange.seq) cite(ctx, res);
    throw e;
  }
}

/** What a judge pack runs and what it leaves out. */
export interface JudgePack {
  pack: Pack;
  /** The ids of the checks that need requests of their own, which observed traffic cannot exercise. */
  notExercised: string[];
}

/**
 * The checks of `pack` over `traffic` (and the webhook `deliveries` the session saw): those that can judge observed traffic run their `observe`, the others are skipped
 * as not exercised (NOT_EXERCISED).
 */
export function judgePack(
  pack: Pack,
  traffic: readonly TrafficExchange[],
  redactor: Redactor,
  deliveries: readonly TrafficExchange[] = [],
): JudgePack {
  return observingPack(pack.suites, () => new TrafficSession(traffic, redactor, deliveries), NOT_EXERCISED);
}

/**
 * A judge pack over `suites` (the server pack's, or the client pack's: suites/client/index.ts, clientJudgePack): each
 * check with `observe` runs it, reading the session `openSession` makes; every other check is skipped, `notExercised`
 * saying why.
 */
export function observingPack(
  suites: readonly SuiteDefinition[],
  openSession: () => ObservingSession,
  notExercised: string,
): JudgePack {
  const observing = (c: CheckDefinition): c is CheckDefinition & Required<Pick<CheckDefinition, 'observe'>> =>
    c.observe !== undefined;
  const judging: SuiteDefinition[] = suites.map((s) => ({
    name: s.name,
    title: s.title,
    // A check traffic cannot exercise is still reported, skipped with why: the verdict counts what it cites as not
    // exercised (src/engine/verdict.ts), so a judge run never claims more than the traffic showed.
    checks: s.checks.map(({ uses: _uses, alone: _alone, ...c }) => ({
      ...c,
      run: observing(c) ? c.observe : async (ctx: CheckContext) => ctx.skip(notExercised),
    })),
  }));
  return {
    pack: {
      suites: judging,
      sharedStates: [],
      stateChangedBy: () => undefined,
      openSession,
      observesOnly: true,
    },
    notExercised: suites.flatMap((s) => s.checks.filter((c) => !observing(c)).map((c) => c.id)),
  };
}

/**
 * The session of both sides over one traffic: the server checks read its answers (as TrafficSession's), the client
 * checks its requests (as ClientTrafficSession's `observed`).
 */
class BothSidesSession extends ObservingSession {
  constructor(
    private readonly server: TrafficSession,
    readonly observed: ClientTraffic,
  ) {
    super();
  }

  answers(): HttpResponse[] {
    return this.server.answers();
  }

  /** The server's webhook deliveries, as the server judge pack's session holds them (see observedDeliveries). */
  get deliveries(): readonly TrafficExchange[] {
    return this.server.deliveries;
  }

  get redactor(): Redactor {
    return this.server.redactor;
  }

  open(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * One judge pack of both sides of the same traffic (`judge --side both`, `conformance proxy`): the server judge pack's
 * suites, then the client judge pack's (suites/client/index.ts, clientJudgePack), each check reading its side. Ids do
 * not collide: every client check's starts with `client.`.
 */
export function bothSidesPack(server: JudgePack, client: JudgePack): JudgePack {
  return {
    pack: {
      ...server.pack,
      suites: [...server.pack.suites, ...client.pack.suites],
      openSession: (signed, target, sink) =>
        new BothSidesSession(
          server.pack.openSession(signed, target, sink) as TrafficSession,
          (client.pack.openSession(signed, target, sink) as unknown as { observed: ClientTraffic }).observed,
        ),
    },
    notExercised: [...server.notExercised, ...client.notExercised],
  };
}
