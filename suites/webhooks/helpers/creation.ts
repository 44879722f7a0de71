// A webhook's creation, observed once per client: settled by whichever creation check runs first
// (webhooks.create.auto-subscription, webhooks.events.webhook-created), each judging it through creationCheck. The
// records an earlier run kept and the second client are in creation-records.ts.
import {
  AUTOMATIC_SUBSCRIPTION as AUTOMATIC,
  describeResponse,
  isSuccess,
  pathAndQuery,
  type Delivery,
  type WebhookReceiver,
  webhookOfResponse,
  knownRevokeBody,
  revokeRequest,
  narrowSecondWebhook,
  secondWebhookEntry,
  secondWebhookWhat,
  type FoundRecord,
  type HttpResponse,
} from '../../kit/index.js';
import { CheckFailed, type CheckContext } from '../../../src/engine/index.js';
import {
  findCreation,
  identityOf,
  keepCreation,
  noCreationFinding,
  postFacts,
  recordState,
  sameWebhook,
  secondClient,
  secondClientRefused,
  secondToken,
  showIdentity,
  showPost,
  type CarrySettings,
  type CreationData,
  type KeptJudgement,
  type SecondClient,
  type WebhookIdentity,
} from './creation-records.js';
import { type SuiteState, receiverOf, type Creation, stateOf, runOf, type Carried, type Observed } from './state.js';
import { register, readKey } from './endpoints.js';
import { eventOf, latencyOf, drain } from './deliveries.js';
import { reachable, everReached, unreached } from './reach.js';

/**
 * Whether a delivery is the second client's: its webhook is at the receiver's second URL (one the receiver reads back
 * behind a proxy), from its creation until the deliveries its narrowing causes have arrived (SuiteState.second); the
 * run's own webhook moves there only later (webhooks.update.url).
 */
export function ofSecondClient(ctx: CheckContext, st: SuiteState): (d: Delivery) => boolean {
  const span = st.second;
  if (span === undefined) return () => false;
  const at = pathAndQuery(receiverOf(ctx).alternateUrl);
  return (d) => d.seq > span.after && (span.until === undefined || d.seq <= span.until) && d.path === at;
}

/** How the run knows a webhook's creation, settled once per run by the first creation check (see helpers/creation-records.ts). */
function creationOf(ctx: CheckContext): Promise<Creation> {
  const st = stateOf(ctx);
  return (st.creation ??= settleCreation(ctx, st));
}

async function settleCreation(ctx: CheckContext, st: SuiteState): Promise<Creation> {
  const { carry } = runOf(ctx);
  const receiver = receiverOf(ctx);
  const reg = await register(ctx);
  if (reg.via === 'POST') {
    const shown = await ctx.send({ method: 'GET', path: '/webhooks' });
    const w = (isSuccess(shown) ? webhookOfResponse(shown) : undefined) ?? reg.webhook;
    return {
      kind: 'observed',
      by: 'target',
      clientId: carry.clientId,
      post: reg.res,
      cursor: reg.cursor,
      shown,
      data: { by: 'target', webhook: identityOf(w), post: postFacts(reg.res), checks: {} },
    };
  }
  if (st.saved.kind === 'none')
    return {
      kind: 'spoilt',
      reason:
        'a webhook existed already, created by an earlier request of the run that the server should have refused (the webhooks.reject checks judge it): the receiver was registered with PUT, so no creation could be observed (the interface has no DELETE)',
    };
  // The target's client has a webhook (one per client, no DELETE): the record of its creation, if one is kept.
  const now = await ctx.send({ method: 'GET', path: '/webhooks' });
  const identity = identityOf(isSuccess(now) ? webhookOfResponse(now) : undefined);
  const why = `a webhook existed before the suite for client ${JSON.stringify(carry.clientId)}, and the interface has no DELETE`;
  const found = await findCreation(carry, carry.clientId);
  const carried = carriable(found, carry.clientId, identity, why);
  if (carried) return carried;
  const target = { identity, record: recordState(carry, found, identity) };
  if (carry.webhookClient === undefined) return { kind: 'none', finding: noCreationFinding(carry, target) };
  return secondCreation(ctx, st, carry, target, receiver);
}

function carriable(
  found: FoundRecord<CreationData> | undefined,
  clientId: string,
  identity: WebhookIdentity,
  why: string,
): Carried | undefined {
  if (found === undefined || !found.ok) return undefined;
  const same = sameWebhook(found.record.data.webhook, identity);
  if (!same.same) return undefined;
  return {
    kind: 'carried',
    clientId,
    record: found.record,
    file: found.file,
    digest: found.digest,
    why,
    how: same.how,
    identity,
  };
}

/**
 * The second client creates its webhook, at the receiver's second URL and with ["ALL"], as the
 * run's client would: its configuration is read, its key used by the receiver, and its WEBHOOK.CREATED awaited. Then
 * its webhook is narrowed to WEBHOOK.CREATED alone (no later event of that client selects it), its token revoked, and
 * the deliveries that causes let arrive, so that no later check of the run takes one for its own.
 */
async function secondCreation(
  ctx: CheckContext,
  st: SuiteState,
  carry: CarrySettings,
  target: { identity: WebhookIdentity; record: string },
  receiver: WebhookReceiver,
): Promise<Creation> {
  const client = carry.webhookClient!;
  const issued = await secondToken(ctx, client);
  if ('problem' in issued) return { kind: 'none', finding: secondClientRefused(carry, issued.problem) };
  const creation = new SecondCreation(ctx, st, receiver, client, issued.token);
  try {
    return await creation.create(carry, target);
  } finally {
    await creation.cleanUp();
  }
}

type WebhookClientSettings = NonNullable<CarrySettings['webhookClient']>;

/** One creation by the second client, with its token: each step of secondCreation, and the clean-up that ends it. */
class SecondCreation {
  private readonly second: SecondClient;
  /** The clean-up's own requests (the narrowing, the revocation): not cut when an interruption cuts the check's. */
  private readonly cleaning: SecondClient;
  private revoked: string | undefined;
  /** The journal entry of its webhook, written before the POST, open until the narrowing is done. */
  private entry: { id: string; url: string; narrowing: boolean } | undefined;

  constructor(
    private readonly ctx: CheckContext,
    private readonly st: SuiteState,
    private readonly receiver: WebhookReceiver,
    private readonly client: WebhookClientSettings,
    private readonly token: string,
  ) {
    this.second = secondClient(ctx, client, token);
    this.cleaning = secondClient(ctx, client, token, new AbortController().signal);
  }

  /** Creates the webhook and sees it through, or says why the second client cannot (it has a webhook already). */
  async create(carry: CarrySettings, target: { identity: WebhookIdentity; record: string }): Promise<Creation> {
    const before = await this.second.send({ method: 'GET', path: '/webhooks' });
    const existing = isSuccess(before) ? webhookOfResponse(before) : undefined;
    if (before.status !== 404 && !(isSuccess(before) && existing === undefined))
      return this.alreadyThere(carry, target, before, existing);
    const url = new URL(this.receiver.alternateUrl);
    const cursor = this.receiver.cursor();
    const span: NonNullable<SuiteState['second']> = { after: cursor };
    this.st.second = span;
    const ofSecond = ofSecondClient(this.ctx, this.st);
    const observed = await this.post(url.href, cursor);
    if (!isSuccess(observed.post)) return observed;
    await this.awaitCreated(observed, ofSecond);
    await this.leave(observed, url.href);
    // Whatever the second client's requests caused, up to the last just sent, is let arrive.
    await drain(this.ctx, this.st, ofSecond, Date.now());
    span.until = this.receiver.cursor();
    return observed;
  }

  /** The second client has a webhook: its creation's record carried forward if one is kept, else the set-up problem. */
  private async alreadyThere(
    carry: CarrySettings,
    target: { identity: WebhookIdentity; record: string },
    before: HttpResponse,
    existing: ReturnType<typeof webhookOfResponse>,
  ): Promise<Creation> {
    const name = `the webhook client ${JSON.stringify(this.client.clientId)}`;
    if (existing === undefined)
      return {
        kind: 'none',
        finding: noCreationFinding(carry, target, {
          state: `whether ${name} has a webhook is unknown: GET /webhooks answered ${describeResponse(before)}`,
        }),
      };
    const identity = identityOf(existing);
    const found = await findCreation(carry, this.client.clientId);
    const why = `client ${JSON.stringify(carry.clientId)} and ${name} (targets.${carry.target}.webhookClient) both have a webhook, and the interface has no DELETE`;
    const carried = carriable(found, this.client.clientId, identity, why);
    if (carried) return carried;
    return {
      kind: 'none',
      finding: noCreationFinding(carry, target, {
        state: `${name} has one too (${showIdentity(identity)}): ${recordState(carry, found, identity)}`,
      }),
    };
  }

  /** The journal entry, the POST /webhooks with ["ALL"], and the webhook as GET /webhooks then shows it. */
  private async post(url: string, cursor: number): Promise<Observed & { post: HttpResponse }> {
    // Written before the POST: a run killed before the narrowing leaves it, and the next run narrows it as that client.
    this.entry = {
      id: await this.ctx.journal.record(secondWebhookEntry(this.client.clientId, url)),
      url,
      narrowing: false,
    };
    const post = await this.second.send({ method: 'POST', path: '/webhooks', json: { url, subscriptions: ['ALL'] } });
    const shown = await this.second.send({ method: 'GET', path: '/webhooks' });
    const w = (isSuccess(shown) ? webhookOfResponse(shown) : undefined) ?? webhookOfResponse(post);
    return {
      kind: 'observed',
      by: 'webhookClient',
      clientId: this.client.clientId,
      post,
      cursor,
      shown,
      data: { by: 'webhookClient', webhook: identityOf(w), post: postFacts(post), checks: {} },
    };
  }

  /** The key the second client reads, for the receiver, and its WEBHOOK.CREATED delivery awaited. */
  private async awaitCreated(
    observed: Observed & { post: HttpResponse },
    ofSecond: (d: Delivery) => boolean,
  ): Promise<void> {
    const { ctx, st, receiver } = this;
    const { post } = observed;
    const key = await readKey(ctx, this.second);
    if ('key' in key) receiver.useKey(key.key.key);
    else observed.keyProblem = key.problem;
    // The deadline runs from the answer to the POST, as every wait for a delivery does.
    const answered = Date.parse(post.exchange.startedAt ?? '') + post.exchange.durationMs;
    const left = Number.isFinite(answered)
      ? Math.max(0, answered + receiver.deadlineMs - Date.now())
      : receiver.deadlineMs;
    const d = await ctx.idle(
      receiver.waitFor((x) => ofSecond(x) && eventOf(x) === 'WEBHOOK.CREATED', left, ctx.signal),
    );
    if (d !== undefined) {
      observed.delivery = d;
      const latency = latencyOf(d, post);
      if (latency !== undefined) st.latencies.push(latency);
      st.delivered.add('WEBHOOK.CREATED');
    }
  }

  /** The webhook narrowed (its journal entry closed when it was) and the token revoked; observed.left says what stays. */
  private async leave(observed: Observed, url: string): Promise<void> {
    this.entry!.narrowing = true;
    const narrowing = await leaveSecond(this.second, url);
    observed.left = narrowing.text;
    // Not narrowed: the entry stays, for the next run (or `conformance restore`) to narrow.
    if (narrowing.narrowed)
      await this.ctx.journal.done(
        this.entry!.id,
        `${secondWebhookWhat(this.client.clientId)} (narrowed: url ${url}, subscriptions ["${AUTOMATIC}"])`,
      );
    const notRevoked = await this.revoke();
    if (notRevoked !== '')
      observed.left += `; its token could not be revoked (${notRevoked}): it lives until it expires`;
  }

  /** Revokes the second client's token once; says why not when the server did not. */
  private async revoke(): Promise<string> {
    this.revoked ??= await this.cleaning
      .send(revokeRequest(this.token, knownRevokeBody(this.ctx) ?? 'none'))
      .then((res) => (isSuccess(res) ? '' : `POST /oauth/revoke answered ${res.status}`))
      .catch((e: unknown) => (e as Error).message);
    return this.revoked;
  }

  /** Whatever happened (interrupted, out of time, broken): the webhook narrowed, the token revoked, the span closed. */
  async cleanUp(): Promise<void> {
    const { entry, st } = this;
    // Cut short (interrupted, out of time, broken) between the POST and the narrowing: narrowed now, as that client.
    if (entry !== undefined && !entry.narrowing) {
      const put = await narrowSecondWebhook(this.cleaning.send, this.client.clientId, entry.url).catch(() => undefined);
      if (put?.ok) await this.ctx.journal.done(entry.id, put.said);
    }
    await this.revoke();
    // A creation cut short: what arrives at the second URL from now on is not the second client's.
    if (st.second !== undefined) st.second.until ??= this.receiver.cursor();
  }
}

/** Narrows the second client's webhook to WEBHOOK.CREATED (it stays: no DELETE) and says what it left. */
async function leaveSecond(second: SecondClient, url: string): Promise<{ text: string; narrowed: boolean }> {
  const list = [AUTOMATIC];
  const res = await second
    .send({ method: 'PUT', path: '/webhooks', json: { url, subscriptions: list } })
    .catch((e: unknown) => (e as Error).message);
  const name = `the webhook client ${JSON.stringify(second.clientId)}`;
  if (typeof res !== 'string' && isSuccess(res))
    return {
      narrowed: true,
      text: `${name} keeps its webhook (the interface has no DELETE): url ${url}, subscriptions ${JSON.stringify(list)}, which nothing that client does later selects`,
    };
  const why = typeof res === 'string' ? res : `answered ${describeResponse(res)}`;
  return {
    narrowed: false,
    text: `${name} keeps its webhook (the interface has no DELETE) subscribed to ["ALL"] at ${url}, where no one listens after the run: narrowing it to ${JSON.stringify(list)} failed (PUT /webhooks ${why}); send that PUT as that client by hand`,
  };
}

/**
 * Before a creation check is kept from running by a set-up problem of its own: the receiver's, if it has one, comes
 * first (a receiver the server cannot reach is the one to fix first; the other is then stated by the checks that meet
 * it, each problem of the suite listed once).
 */
async function receiverFirst(ctx: CheckContext, st: SuiteState): Promise<void> {
  reachable(ctx, st);
  // Nothing has come yet (a registration under a list that does not select its update brings nothing): the run's one
  // POST /webhooks/test tells a receiver the server cannot reach (see unreached).
  if (everReached(receiverOf(ctx))) return;
  const problem = await unreached(ctx, st);
  if (problem) ctx.setupProblem(problem);
}

/**
 * A creation check: judged on the creation observed in this run and kept for later runs, or carried forward from the
 * run that observed it, or kept from running by the set-up problem that names what to ask the provider for.
 */
export async function creationCheck(
  ctx: CheckContext,
  judge: (c: Observed, st: SuiteState) => Promise<void>,
): Promise<void> {
  const st = stateOf(ctx);
  const c = await creationOf(ctx);
  if (c.kind === 'none') {
    await receiverFirst(ctx, st);
    ctx.setupProblem(c.finding);
  }
  if (c.kind === 'spoilt') ctx.skip(c.reason);
  if (c.kind === 'carried') return carriedJudgement(ctx, c);
  const from = ctx.observations.length;
  try {
    await judge(c, st);
  } catch (e) {
    if (e instanceof CheckFailed) {
      const f = e.finding;
      await keep(ctx, c, { outcome: 'fail', said: [f.message, f.expected ?? '', f.observed ?? ''] });
    }
    throw e;
  }
  await keep(ctx, c, { outcome: 'pass', said: ctx.observations.slice(from) });
}

/** Adds this check's judgement to the record of the creation, and writes it for later runs. */
async function keep(ctx: CheckContext, c: Observed, judgement: KeptJudgement): Promise<void> {
  c.data.checks[ctx.check.id] = judgement;
  c.kept = await keepCreation(runOf(ctx).carry, c.clientId, c.data);
  if (c.kept !== undefined && 'problem' in c.kept) ctx.observe(c.kept.problem);
}

/** Reports the judgement an earlier run kept, with when, what and the record: a pass, or its failure again. */
function carriedJudgement(ctx: CheckContext, c: Carried): void {
  const { carry } = runOf(ctx);
  const data = c.record.data;
  const then = `the creation observed ${showPost(c.clientId, data.post)} by suite version ${c.record.suiteVersion}`;
  const record = `record ${c.file}, sha256 ${c.digest}, signed with keyid ${JSON.stringify(carry.signer.keyId)}`;
  const j = data.checks[ctx.check.id];
  if (j === undefined)
    ctx.setupProblem(
      noCreationFinding(carry, {
        identity: c.identity,
        record: `the record in ${c.file} holds no judgement of ${ctx.check.id} (the run that kept it did not run it)`,
      }),
    );
  if (j.outcome === 'fail')
    ctx.fail(`carried forward from ${then}: ${j.said[0] ?? 'failed'}`, {
      expected: j.said[1] ?? '',
      observed: `${j.said[2] ?? ''} (not observed again in this run: ${c.why}; ${record})`,
    });
  ctx.observe(`not observed in this run: ${c.why}; carried forward from ${then}`);
  ctx.observe(`the webhook configured now is the one that run created: ${c.how}`);
  for (const line of j.said) ctx.observe(`then: ${line}`);
  ctx.observe(record);
  ctx.judged(`the creation observed at ${data.post.at} (carried forward)`);
}
