// Client checks of area renew: in scenario renew the sandbox ends every token of the client right after its second
// request answered with a token (act 'token-ended'); the next call gets a 401. A token that is "no longer valid"
// (Token lifecycle) is replaced by a new one from POST /oauth/token (Authentication 1), once, and never sent again.
// Observed traffic shows no act: where it shows a 401 to a request with a token after which the client asked for a new
// one (it took the token as ended), no-stale-token judges the requests after that 401 (`observe`); new-token needs the
// scenario's task (did the client finish?), and is not exercised there.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { cite, observedTraffic, scenarioOf, stopWhenBlocked, type ClientRequest, type ScenarioRecord } from './kit.js';
import {
  bearerOf,
  headers,
  isRevoke,
  isTokenRequest,
  issuedTokens,
  named,
  stopWhenUnissued,
  succeeded,
} from './traffic.js';

/** The token request of the task, one after the token ended, and one spare: more is a loop. */
const MAX_TOKEN_REQUESTS = 3;
const REQUIREMENTS = ['REQ-LIFE-04', 'REQ-AUTH-01'];

interface Renewal {
  record: ScenarioRecord;
  /** The seq after whose answer the sandbox ended the tokens. */
  endedAfter: number;
  /** Tokens issued up to then: all ended. */
  ended: Set<string>;
  /** The first request after the act that presented an ended token and was answered 401. */
  first401?: ClientRequest;
  /** A request after that 401 presenting the same token again. */
  staleAgain?: ClientRequest;
}

function renewal(ctx: CheckContext): Renewal {
  const record = scenarioOf(ctx, 'renew');
  stopWhenBlocked(ctx, record.requests);
  stopWhenUnissued(ctx, record);
  const act = record.acts.find((a) => a.kind === 'token-ended');
  if (act === undefined)
    ctx.skip(
      `the sandbox never ended the client's token: the client made fewer than 2 requests with a token (${record.requests.length} request(s) in all)`,
    );
  const ended = new Set(
    issuedTokens(record)
      .filter((t) => t.seq <= act.afterSeq)
      .map((t) => t.token),
  );
  const after = record.requests.filter((r) => r.seq > act.afterSeq);
  stopWhenReplayed(ctx, record, after, ended);
  return { record, endedAfter: act.afterSeq, ended, ...staleUse(after, ended) };
}

/** Among `after`, the first request refused 401 presenting an ended token, and a later one presenting it again. */
function staleUse(
  after: readonly ClientRequest[],
  ended: ReadonlySet<string>,
): { first401?: ClientRequest; staleAgain?: ClientRequest } {
  const first401 = after.find((r) => r.status === 401 && ended.has(bearerOf(r) ?? ''));
  // Revoking a token the server already ended is harmless clean-up, not a use of it.
  const staleAgain =
    first401 === undefined
      ? undefined
      : after.find((r) => r.seq > first401.seq && !isRevoke(r) && bearerOf(r) === bearerOf(first401));
  return { ...(first401 ? { first401 } : {}), ...(staleAgain ? { staleAgain } : {}) };
}

/**
 * One cause, one failure: a renewal sent with the idempotency key of an earlier token request is answered, as a
 * server may, with that request's answer, an ended token. The client then holds no new token because it reused the
 * key (client.requests.idempotency-unique's defect), not because it failed to renew.
 */
function stopWhenReplayed(
  ctx: CheckContext,
  record: ScenarioRecord,
  after: readonly ClientRequest[],
  ended: ReadonlySet<string>,
): void {
  const issued = issuedTokens(record);
  for (const r of after.filter(isTokenRequest)) {
    const got = issued.find((t) => t.seq === r.seq);
    const key = headers(r, 'x-idempotency-key')[0];
    if (got === undefined || !ended.has(got.token) || key === undefined) continue;
    const earlier = record.requests.find((e) => e.seq < r.seq && headers(e, 'x-idempotency-key')[0] === key);
    if (earlier === undefined) continue;
    ctx.alsoSee({
      requirements: ['REQ-HDR-21'],
      ownedBy: 'client.requests.idempotency-unique',
      message: `${named(r)} reuses the idempotency key of ${named(earlier)}; the sandbox answered it with that request's token, which had ended`,
      exchange: cite(ctx, r),
    });
    ctx.skip(
      `the renewal reused an earlier idempotency key, so it brought back the ended token (client.requests.idempotency-unique judges that)`,
    );
  }
}

const newToken = defineCheck({
  id: 'client.renew.new-token',
  title: 'When its token ends, the client gets a new one and finishes, without loops',
  level: 'MUST',
  requirements: REQUIREMENTS,
  explain: {
    sends:
      'Nothing: reads scenario renew (the read task; the sandbox ends every token of the client right after its second request answered with a token, act token-ended).',
    passes: `After the token ended, the client obtained a new token with POST /oauth/token, every request it then made with the new token succeeded (2xx), it ended on its own (not by the time limit), and it sent at most ${MAX_TOKEN_REQUESTS} token requests in all.`,
    fails: `The client gave up after the 401 (no new token), requested tokens in a loop (more than ${MAX_TOKEN_REQUESTS}), did not finish the task with the new token (a request with it refused), or hung until the time limit.`,
  },
  async run(ctx) {
    const { record, endedAfter, staleAgain } = renewal(ctx);
    const tokenRequests = record.requests.filter(isTokenRequest);
    const renewed = issuedTokens(record).find((t) => t.seq > endedAfter);
    const loop = tokenRequests.length > MAX_TOKEN_REQUESTS;
    const fresh =
      renewed === undefined ? [] : record.requests.filter((r) => r.seq > renewed.seq && bearerOf(r) === renewed.token);
    const refused = fresh.find((r) => !succeeded(r));
    const defect = loop
      ? { message: `the client sent ${tokenRequests.length} token requests`, at: tokenRequests.at(-1)! }
      : renewed === undefined
        ? { message: 'the client obtained no new token after its token ended', at: record.requests.at(-1)! }
        : refused !== undefined
          ? { message: `${named(refused)} with the new token was answered ${refused.status}`, at: refused }
          : fresh.length === 0
            ? {
                message: 'the client made no request with its new token',
                at: record.requests.find((r) => r.seq === renewed.seq)!,
              }
            : record.end.endedBy !== 'exit'
              ? { message: `the command did not end on its own (${record.end.endedBy})`, at: record.requests.at(-1)! }
              : undefined;
    if (defect === undefined) return ctx.judged('the renewal and the requests after it', 1 + fresh.length);
    ctx.fail(`scenario renew: ${defect.message}`, {
      expected: `after the token ended (request #${endedAfter}), one POST /oauth/token, then the rest of the task with the new token, all answered 2xx; at most ${MAX_TOKEN_REQUESTS} token requests; the command exits on its own`,
      observed: `${tokenRequests.length} token request(s); ${renewed ? `new token issued at #${renewed.seq}, ${fresh.length} request(s) with it` : 'no new token'}; ended by ${record.end.endedBy} (exit code ${String(record.end.code)})`,
      exchange: cite(ctx, defect.at),
      // A client that keeps sending the ended token never gets to renew it: that is client.renew.no-stale-token's defect.
      ...(staleAgain && renewed === undefined
        ? { cause: { ownedBy: 'client.renew.no-stale-token', requirements: REQUIREMENTS } }
        : {}),
    });
  },
});

const noStaleToken = defineCheck({
  id: 'client.renew.no-stale-token',
  title: 'After a 401 for an ended token, the client never sends that token again',
  level: 'MUST',
  requirements: REQUIREMENTS,
  explain: {
    sends: "Nothing: reads scenario renew, the requests after the sandbox ended the client's tokens.",
    passes:
      'Once a request presenting an ended token was answered 401, no later request presents that token (its revocation excepted: clean-up of a token already dead harms nothing). A client that renewed before meeting the 401 passes.',
    fails:
      'The client retried with the token the 401 refused: the same request again, another request, or a loop of them.',
  },
  async run(ctx) {
    const { record, endedAfter, first401, staleAgain } = renewal(ctx);
    const after = record.requests.filter((r) => r.seq > endedAfter);
    if (after.length === 0) ctx.skip('the client sent no request after the sandbox ended its token');
    judgeNoStale(ctx, after, first401, staleAgain);
  },
  async observe(ctx) {
    const { requests } = observedTraffic(ctx);
    const renewedAfter = requests.find(
      (r) => r.status === 401 && bearerOf(r) !== undefined && requests.some((t) => t.seq > r.seq && isTokenRequest(t)),
    );
    if (renewedAfter === undefined)
      return ctx.skip(
        'the traffic shows no 401 to a request with a token after which the client asked for a new token: no ended token to judge',
      );
    const after = requests.filter((r) => r.seq >= renewedAfter.seq);
    const { first401, staleAgain } = staleUse(after, new Set([bearerOf(renewedAfter)!]));
    judgeNoStale(ctx, after, first401, staleAgain);
  },
});

function judgeNoStale(
  ctx: CheckContext,
  after: readonly ClientRequest[],
  first401: ClientRequest | undefined,
  staleAgain: ClientRequest | undefined,
): void {
  if (first401 === undefined) {
    ctx.observe('the client sent no ended token after the sandbox ended it (it renewed before meeting the 401)');
    return ctx.judged('a request after the token ended', after.length);
  }
  if (staleAgain === undefined) return ctx.judged('a request after the token ended', after.length);
  cite(ctx, first401);
  ctx.fail(`${named(staleAgain)} presents the token that ${named(first401)} was refused with`, {
    expected: `after the 401 to ${named(first401)}, a new token from POST /oauth/token; the ended token never sent again`,
    observed: `${named(staleAgain)} with the same bearer token, answered ${staleAgain.status}${isRevoke(staleAgain) ? ' (a revocation)' : ''}`,
    exchange: cite(ctx, staleAgain),
  });
}

export default defineSuite({
  name: 'client.renew',
  title: 'Client: renew',
  checks: [newToken, noStaleToken],
});
