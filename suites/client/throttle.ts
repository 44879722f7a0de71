// Client checks of area throttle: in scenario throttle the sandbox answers 429 with Retry-After (act 'throttled'):
// once for GET /customers/{customerId}, then on every attempt of GET /accounts?customerId=… (persistent). Rate limits
// are not shown in the spec; a client honours the 429 as HTTP says (REQ-LIM-07). Times are the sandbox's: when it
// answered the 429 (the act) and when the next attempt arrived (receivedAt), never a clock of the checks. In observed
// traffic (`observe`) a 429 with Retry-After (seconds) is judged the same way, its answer's time being when the
// exchange started plus how long it took; whether retries are bounded is not (the traffic's end is not the client's).
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import {
  cite,
  observedTraffic,
  scenarioOf,
  stopWhenBlocked,
  type ClientRequest,
  type SandboxAct,
  type ScenarioRecord,
} from './kit.js';
import { named, stopWhenUnissued } from './traffic.js';

/** Clock granularity between the sandbox's two time stamps. */
const SLACK_MS = 50;
/** Retries after the first attempt of a request the sandbox keeps throttling. */
const MAX_RETRIES = 3;

type Throttled = Extract<SandboxAct, { kind: 'throttled' }>;

function throttled(ctx: CheckContext): { record: ScenarioRecord; acts: Throttled[] } {
  const record = scenarioOf(ctx, 'throttle');
  stopWhenBlocked(ctx, record.requests);
  stopWhenUnissued(ctx, record);
  const acts = record.acts.filter((a): a is Throttled => a.kind === 'throttled');
  if (acts.length === 0) ctx.skip('the sandbox throttled no request: the client never reached the throttled requests');
  return { record, acts };
}

function sameRequest(a: ClientRequest, b: ClientRequest): boolean {
  return a.method === b.method && a.path === b.path;
}

const retryAfter = defineCheck({
  id: 'client.throttle.retry-after',
  title: 'After a 429, the client waits at least Retry-After before trying again',
  level: 'SHOULD',
  requirements: ['REQ-LIM-07'],
  explain: {
    sends:
      "Nothing: reads scenario throttle: each request the sandbox answered 429 with Retry-After (seconds), and the client's next attempt of the same method and target.",
    passes: `Every next attempt arrived at least Retry-After seconds after the sandbox answered the 429 (${SLACK_MS} ms allowed for clock granularity). A client that retried no throttled request is not judged (the check skips).`,
    fails:
      'An attempt sent sooner than Retry-After asked: an immediate retry, a fixed short backoff, or Retry-After read as milliseconds.',
  },
  async run(ctx) {
    const { record, acts } = throttled(ctx);
    judgeRetryAfter(ctx, record.requests, acts);
  },
  async observe(ctx) {
    const { requests } = observedTraffic(ctx);
    const throttles = requests.flatMap((r) => {
      const seconds = Number(r.replyHeaders['retry-after']?.trim());
      const at = r.receivedAt + r.exchange.durationMs;
      return r.status === 429 && Number.isInteger(seconds) && seconds >= 0 && Number.isFinite(at)
        ? [{ seq: r.seq, retryAfterSeconds: seconds, at }]
        : [];
    });
    if (throttles.length === 0) ctx.skip('the traffic holds no 429 answer with Retry-After in seconds and a time');
    judgeRetryAfter(
      ctx,
      requests.filter((r) => Number.isFinite(r.receivedAt)),
      throttles,
    );
  },
});

/** Each 429 (`at`: when it was answered), against the client's next attempt of the same method and target. */
function judgeRetryAfter(
  ctx: CheckContext,
  requests: readonly ClientRequest[],
  throttles: ReadonlyArray<Pick<Throttled, 'seq' | 'retryAfterSeconds' | 'at'>>,
): void {
  let judged = 0;
  for (const act of throttles) {
    const answered = requests.find((r) => r.seq === act.seq);
    if (answered === undefined) continue;
    const next = requests.find((r) => r.seq > act.seq && sameRequest(r, answered));
    if (next === undefined) continue;
    judged++;
    const waited = next.receivedAt - act.at;
    if (waited >= act.retryAfterSeconds * 1000 - SLACK_MS) {
      ctx.judged(named(next));
      continue;
    }
    cite(ctx, answered);
    ctx.fail(`${named(next)} came ${waited} ms after the 429 to ${named(answered)}`, {
      expected: `the next attempt no sooner than Retry-After: ${act.retryAfterSeconds} (${act.retryAfterSeconds * 1000} ms) after the 429`,
      observed: `${waited} ms between the 429 and the next attempt`,
      exchange: cite(ctx, next),
    });
  }
  if (judged === 0) ctx.skip('the client retried no throttled request: no wait to judge');
}

const bounded = defineCheck({
  id: 'client.throttle.bounded',
  title: 'Against a 429 that does not end, the client retries a bounded number of times and ends',
  level: 'SHOULD',
  requirements: ['REQ-LIM-07'],
  explain: {
    sends:
      'Nothing: reads scenario throttle: the request the sandbox answers 429 on every attempt (GET /accounts?customerId=…, persistent), and how the command ended.',
    passes: `The client made at most ${MAX_RETRIES + 1} attempts of it (${MAX_RETRIES} retries) and then ended on its own (a non-zero exit code is fine).`,
    fails: `More than ${MAX_RETRIES + 1} attempts (retrying without bound), or a command the harness had to stop at the scenario's time limit.`,
  },
  async run(ctx) {
    const { record, acts } = throttled(ctx);
    const persistent = acts.find((a) => a.persistent);
    const first = persistent && record.requests.find((r) => r.seq === persistent.seq);
    if (first === undefined) return ctx.skip('the client never reached the request the sandbox keeps throttling');
    const attempts = record.requests.filter((r) => sameRequest(r, first));
    const ended = record.end.endedBy === 'exit';
    if (attempts.length <= MAX_RETRIES + 1 && ended) return ctx.judged(`the attempts of ${named(first)}`);
    ctx.fail(
      attempts.length > MAX_RETRIES + 1
        ? `the client sent ${named(first)} ${attempts.length} times against a 429 that does not end`
        : `the command did not end on its own (${record.end.endedBy}) after ${attempts.length} attempts`,
      {
        expected: `at most ${MAX_RETRIES + 1} attempts of ${first.method} ${first.path}, then the command ends on its own`,
        observed: `${attempts.length} attempts; the command ended by ${record.end.endedBy} after ${record.end.durationMs} ms`,
        exchange: cite(ctx, attempts.at(-1)!),
      },
    );
  },
});

export default defineSuite({
  name: 'client.throttle',
  title: 'Client: throttle',
  checks: [retryAfter, bounded],
});
