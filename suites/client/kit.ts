// What the client checks share: the run's record of every scenario (the pack's session runs the client command before
// the first check), the accessor that skips a check whose scenario did not run, and which check owns the rule a
// sandbox rejection names (one cause, one failure: a flow the sandbox stopped is the owner's failure, not the others').
import type { CheckContext } from '../../src/engine/index.js';
import {
  cite,
  ObservingSession,
  type ClientRequest,
  type ClientRunRecord,
  type ClientTraffic,
  type ClientTrafficSession,
  type ScenarioName,
  type ScenarioRecord,
} from '../kit/index.js';

export type { ClientRequest, ClientTraffic, SandboxAct, ScenarioRecord } from '../kit/index.js';
// Every client check cites the recorded requests it judges, as a judge of traffic does (suites/kit/judge.ts).
export { cite } from '../kit/index.js';

/**
 * The client pack's session: opening it runs the client command once per selected scenario (src/client-api.ts);
 * closing it has nothing to end. It holds no token: the checks send nothing, they judge what was recorded.
 */
export class ClientSession extends ObservingSession {
  private record: ClientRunRecord | undefined;

  constructor(private readonly runScenarios: () => Promise<ClientRunRecord>) {
    super();
  }

  async open(): Promise<void> {
    this.record = await this.runScenarios();
  }

  /** The record of the whole client run; only after open(). */
  get recorded(): ClientRunRecord {
    if (this.record === undefined) throw new Error('the client run has not been recorded yet');
    return this.record;
  }
}

/** The record of one scenario; a skip when `--scenario` left it out. */
export function scenarioOf(ctx: CheckContext, name: ScenarioName): ScenarioRecord {
  const record = (ctx.session as ClientSession).recorded.scenarios[name];
  if (record === undefined) ctx.skip(`scenario ${name} was not run (--scenario)`);
  return record;
}

/** Every scenario that ran, in order. */
export function scenariosRun(ctx: CheckContext): ScenarioRecord[] {
  const all = Object.values((ctx.session as ClientSession).recorded.scenarios).filter(
    (r): r is ScenarioRecord => r !== undefined,
  );
  if (all.length === 0) ctx.skip('no scenario was run');
  return all;
}

/**
 * The client's side of observed traffic, in a client judge pack (index.ts, clientJudgePack): what a check's `observe`
 * judges; a skip when the traffic holds no request.
 */
export function observedTraffic(ctx: CheckContext): ClientTraffic {
  const observed = (ctx.session as ClientTrafficSession).observed;
  if (observed.requests.length === 0) ctx.skip('the traffic holds no request of the client');
  return observed;
}

/**
 * The client check that owns the rule a sandbox rejection names (its Conformance-Rejection code), with the
 * requirements the rule breaks. Undefined for a code no client check owns (a token the sandbox ended on purpose).
 * `request`: the refused request's path and the rejection's reason, where the code alone does not say whose rule it
 * is (a clientId missing from the token request's form; a 422 for an idempotency key used for another request).
 */
function ownerOfRejection(
  code: string,
  request: { path?: string; reason?: string } = {},
): { ownedBy: string; requirements: string[] } | undefined {
  const tokenRequest = request.path !== undefined && request.path.split('?')[0] === '/oauth/token';
  if (code.startsWith('DIGEST_')) return { ownedBy: 'client.requests.digest', requirements: ['REQ-HDR-08'] };
  if (code === 'COMPONENT_NOT_COVERED')
    return { ownedBy: 'client.requests.covers-headers', requirements: ['REQ-HDR-17'] };
  if (
    code === 'SIGNATURE_EXPIRED' ||
    code === 'SIGNATURE_CREATED_FUTURE' ||
    code === 'SIGNATURE_WINDOW_TOO_LONG' ||
    code === 'SIGNATURE_CREATED_MISSING' ||
    code === 'SIGNATURE_EXPIRES_MISSING'
  )
    return { ownedBy: 'client.requests.signature-window', requirements: ['REQ-AUTH-09'] };
  if (
    code.startsWith('SIGNATURE_') ||
    code === 'KEYID_UNKNOWN' ||
    code === 'ALG_MISMATCH' ||
    code === 'COMPONENT_MISSING'
  )
    return { ownedBy: 'client.requests.signed', requirements: ['REQ-HDR-04', 'REQ-HDR-05'] };
  // On the token request the client is named by the form's clientId (no X-Client-Id is required there).
  if (tokenRequest && (code === 'CLIENT_ID_MISSING' || code === 'CLIENT_ID_REPEATED' || code === 'CLIENT_UNKNOWN'))
    return { ownedBy: 'client.token.form', requirements: ['REQ-TOKEP-02'] };
  if (code.startsWith('CLIENT_ID_')) return { ownedBy: 'client.requests.client-id', requirements: ['REQ-HDR-07'] };
  if (code === 'TOKEN_MISSING' || code === 'TOKEN_MALFORMED' || code === 'TOKEN_REPEATED')
    return { ownedBy: 'client.requests.authorization', requirements: ['REQ-HDR-03'] };
  if (code.startsWith('IDEMPOTENCY_KEY_'))
    return { ownedBy: 'client.requests.idempotency-key', requirements: ['REQ-TOKEP-03'] };
  // The sandbox refuses a key used before for another request (422), or while its first request runs (409).
  if ((code === 'UNPROCESSABLE_CONTENT' || code === 'CONFLICT') && /idempotency key/i.test(request.reason ?? ''))
    return { ownedBy: 'client.requests.idempotency-unique', requirements: ['REQ-HDR-21'] };
  if (code.startsWith('CLIENT_SECRET_') || code === 'UNSUPPORTED_MEDIA_TYPE')
    return { ownedBy: 'client.token.form', requirements: ['REQ-TOKEP-02'] };
  return undefined;
}

/**
 * One cause, one failure: when the sandbox refused one of these requests for a rule another client check owns, the
 * flow this check judges was cut short by that defect. Records it for the owner and ends the check skipped; returns
 * when no such refusal is among them.
 */
export function stopWhenBlocked(ctx: CheckContext, requests: readonly ClientRequest[]): void {
  for (const r of requests) {
    const owner = r.rejection
      ? ownerOfRejection(r.rejection.code, { path: r.path, reason: r.rejection.reason })
      : undefined;
    if (owner === undefined || owner.ownedBy === ctx.check.id) continue;
    ctx.alsoSee({
      ...owner,
      message: `the sandbox refused ${r.method} ${r.path} (${r.rejection!.code}: ${r.rejection!.reason})`,
      exchange: cite(ctx, r),
    });
    ctx.skip(
      `the flow was cut short by a defect ${owner.ownedBy} judges: ${r.rejection!.code} on ${r.method} ${r.path}`,
    );
  }
}
