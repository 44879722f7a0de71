// A server that never reaches the receiver shows a set-up problem of the run, not a defect (see ../index.ts): the checks
// that wait for deliveries ask here whether nothing can reach the receiver, and are skipped with the run's set-up
// problem when so.
import { certificateCovers, certificateFingerprint, type Delivery, type WebhookReceiver } from '../../kit/index.js';
import { type CheckContext, type SetupFinding } from '../../../src/engine/index.js';
import { type SuiteState, receiverOf, runOf, type WebhooksRun } from './state.js';

// ---- a receiver the server cannot reach: a set-up problem ----------------------------------------------------------

/** Skips the check with the run's set-up problem when the run knows that nothing can reach the receiver. */
export function reachable(ctx: CheckContext, st: SuiteState): void {
  if (st.unreached) ctx.setupProblem(st.unreached);
}

/** After a wait that ran out: skips the check with the set-up problem when that is why (see unreached). */
export async function reachableAfterWait(ctx: CheckContext, st: SuiteState): Promise<void> {
  const problem = await unreached(ctx, st);
  if (problem) ctx.setupProblem(problem);
}

/** Whether anything of the server's ever came to the receiver: a delivery, one over the cap, or a stray request. */
export function everReached(receiver: WebhookReceiver): boolean {
  const c = receiver.counts;
  return c.received > 0 || c.oversized > 0 || c.stray > 0;
}

/** Whether the receiver has evidence of a set-up problem already, or of the server: anything reached, or TLS failed. */
function anythingSeen(receiver: WebhookReceiver): boolean {
  return everReached(receiver) || receiver.counts.tlsFailures > 0;
}

/** The run's one confirming POST /webhooks/test (see unreached), sent by the first check that needs it. */
async function confirmByTest(ctx: CheckContext, st: SuiteState): Promise<void> {
  if (st.probed) return;
  st.probed = true;
  const res = await ctx.send({ method: 'POST', path: '/webhooks/test' });
  st.confirm = { res, at: Date.now() };
}

/**
 * Waits for a delivery a check needs, as receiver.waitFor. While nothing at all has come to the receiver, halfway
 * through the wait it sends the run's one confirming POST /webhooks/test: when the wait runs out with nothing, the test
 * delivery has had its time too, and the set-up problem is stated without a second wait (see unreached).
 */
export async function awaitNeeded(
  ctx: CheckContext,
  st: SuiteState,
  match: (d: Delivery) => boolean,
  ms: number,
): Promise<Delivery | undefined> {
  const receiver = receiverOf(ctx);
  const waiting = receiver.waitFor(match, ms, ctx.signal);
  // A wait sends nothing: the check's slot goes to another check meanwhile (its POST /webhooks/test takes one back).
  if (st.probed || anythingSeen(receiver)) return ctx.idle(waiting);
  let timer: NodeJS.Timeout | undefined;
  const half = new Promise<'half'>((resolve) => {
    timer = setTimeout(() => resolve('half'), ms / 2);
  });
  const first = await ctx.idle(Promise.race([waiting, half]));
  clearTimeout(timer);
  if (first !== 'half') return first;
  if (!anythingSeen(receiver) && !ctx.signal.aborted) await confirmByTest(ctx, st);
  return ctx.idle(waiting);
}

/**
 * Why nothing can reach the receiver, or undefined when something did: asked when a wait ran out. A server that has
 * reached the receiver once and misses an event fails for it. One that never has is confirmed once with a
 * POST /webhooks/test (sent halfway through the wait that ran out, see awaitNeeded; else now, with half a deadline for
 * its delivery), since the event waited for may be the only one the server fails to emit; then why: TLS handshakes
 * refused (the receiver's certificate), or as the receiver tells (src/receiver/diagnosis.ts) plain HTTP on its TLS port
 * or no connection at all.
 */
export async function unreached(ctx: CheckContext, st: SuiteState): Promise<SetupFinding | undefined> {
  if (st.unreached) return st.unreached;
  const receiver = receiverOf(ctx);
  if (everReached(receiver)) return undefined;
  if (receiver.counts.tlsFailures === 0) {
    await confirmByTest(ctx, st);
    const left = st.confirm ? st.confirm.at + receiver.deadlineMs / 2 - Date.now() : 0;
    // Anything that comes will do, verified or not: one still waiting for the key it is verified with (no check has
    // fetched GET /webhooks/key yet) has reached the receiver all the same.
    if (left > 0 && !everReached(receiver)) await ctx.idle(receiver.nextArrival(left, ctx.signal));
    if (everReached(receiver)) return undefined;
  }
  const c = receiver.counts;
  const test = st.confirm && { status: st.confirm.res.status, text: st.confirm.res.text };
  st.unreached =
    c.tlsFailures > 0 && c.plainHttp === 0
      ? certificateRefused(runOf(ctx), receiver)
      : await receiver.diagnoseUnreached(test);
  return st.unreached;
}

function certificateRefused(run: WebhooksRun, receiver: WebhookReceiver): SetupFinding {
  const c = receiver.counts;
  const problem = `the server did not trust the webhook receiver's certificate: ${c.tlsFailures} TLS handshake${c.tlsFailures === 1 ? '' : 's'} with the receiver failed (last: ${receiver.tlsError ?? 'no reason given'}) and no delivery arrived`;
  const tls = run.settings.tls;
  const pem = receiver.certificatePem;
  if (tls === 'self-signed' || typeof tls !== 'object' || pem === undefined)
    return {
      problem,
      fix: 'make a lasting receiver certificate with `npx conformance keygen` (webhook.tls "self-signed" makes a new one each run), set webhook.tls to its {"certFile", "keyFile"} and hand it to the provider to trust, or see docs/webhook-receiver.md',
    };
  const host = new URL(receiver.url).hostname;
  if (!certificateCovers(pem, host))
    return {
      problem,
      fix: `the receiver's certificate (${tls.certFile}) does not name ${host}, the host of the URL the server calls: make one that does (delete both files and run \`npx conformance keygen\` with webhook.publicUrl or webhook.listen set to it) and hand it to the provider to trust, or see docs/webhook-receiver.md`,
    };
  return {
    problem,
    fix: `hand the receiver's certificate (${tls.certFile}, SHA-256 ${certificateFingerprint(pem)}) to the provider to trust, or see docs/webhook-receiver.md`,
  };
}

/** What the receiver got in the run, for a finding or a skip about deliveries that did not come. */
export function silence(receiver: WebhookReceiver): string {
  const c = receiver.counts;
  const tls =
    c.tlsFailures > 0
      ? c.plainHttp > 0
        ? `${c.tlsFailures} TLS handshake(s) failed, ${c.plainHttp} of them plain HTTP: does a proxy in front end TLS (webhook.tls "none")?`
        : `${c.tlsFailures} TLS handshake(s) failed (last: ${receiver.tlsError}): does the server trust the receiver's certificate?`
      : 'no TLS handshake failed';
  return `receiver totals: ${c.received} received (${c.verified} verified, ${c.rejected} discarded, ${c.pending} unverified), ${c.oversized} over the size cap; ${tls}`;
}
