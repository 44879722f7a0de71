// How a run of the webhooks suite knows a webhook's creation, when the interface gives each client one webhook and no
// DELETE: a creation can be observed once per client, and every later run finds the webhook there.
//
// In order: the target's client creates its webhook (it has none: observed); else the record an earlier run kept of
// the creation of the webhook that client has now (carried forward, saying when, with what, and the record's digest);
// else the second client the config names (`webhookClient`) creates its webhook (observed, and recorded in turn);
// else the record of that client's creation; else the creation checks are kept from running by a set-up problem whose
// fix names what to ask the provider for. A record is carried forward only for the webhook it was made of (the same
// webhookId, or createdAt, where the server shows one), and only when it verifies under the target's key
// (src/evidence/carry-forward.ts). The second client's webhook is left subscribed to WEBHOOK.CREATED alone, which
// nothing it does later selects.
import type { CheckContext, SetupFinding } from '../../../src/engine/index.js';
import {
  describeResponse,
  headerValue,
  parseJson,
  tokenRecordOf,
  tokenRequest,
  carriedFile,
  findCarried,
  keepCarried,
  suiteVersion,
  type CarriedSigner,
  type FoundRecord,
  type HttpResponse,
  type RequestSpec,
  type WebhookClient,
} from '../../kit/index.js';

const CREATION_SUBJECT = 'webhook-creation';

/** What the run holds to find, keep and name records: from the target's config. */
export interface CarrySettings {
  target: string;
  baseUrl: string;
  clientId: string;
  /** The config file's folder; undefined for a target of no config file (no record is kept). */
  folder: string | undefined;
  signer: CarriedSigner;
  webhookClient: WebhookClient | undefined;
}

/** What tells one webhook from another, where the server shows it. */
export interface WebhookIdentity {
  webhookId?: unknown;
  createdAt?: unknown;
  url?: unknown;
}

/** One creation check's judgement, as kept for later runs. */
export interface KeptJudgement {
  outcome: 'pass' | 'fail';
  /** Its observations (a pass) or its failure's message, expected and observed (a fail). */
  said: string[];
}

/** The record of a creation: what was sent, what came back, and what each creation check judged. */
export interface CreationData {
  /** Which client created it: the target's, or the config's webhookClient. */
  by: 'target' | 'webhookClient';
  webhook: WebhookIdentity;
  /** The creating request, as a provider can find it in its logs. */
  post: { at: string; status: number; idempotencyKey?: string; answer: string };
  /** The WEBHOOK.CREATED delivery, once judged. */
  delivery?: { arrivedAt: string; path: string; state: string; keyId?: string; event?: string };
  checks: Record<string, KeptJudgement>;
}

export function identityOf(w: Record<string, unknown> | undefined): WebhookIdentity {
  if (w === undefined) return {};
  const id: WebhookIdentity = {};
  if (w.webhookId !== undefined) id.webhookId = w.webhookId;
  if (w.createdAt !== undefined) id.createdAt = w.createdAt;
  if (w.url !== undefined) id.url = w.url;
  return id;
}

export function showIdentity(id: WebhookIdentity): string {
  const parts: string[] = [];
  if (id.webhookId !== undefined) parts.push(`webhookId ${JSON.stringify(id.webhookId)}`);
  if (id.createdAt !== undefined) parts.push(`createdAt ${JSON.stringify(id.createdAt)}`);
  return parts.length > 0 ? parts.join(', ') : 'no webhookId or createdAt shown';
}

/** Whether the webhook now configured is the one a record was made of; `how` says what told. */
export function sameWebhook(recorded: WebhookIdentity, now: WebhookIdentity): { same: boolean; how: string } {
  const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (recorded.webhookId !== undefined && now.webhookId !== undefined)
    return eq(recorded.webhookId, now.webhookId)
      ? { same: true, how: `the same webhookId ${JSON.stringify(now.webhookId)}` }
      : {
          same: false,
          how: `the record is of webhookId ${JSON.stringify(recorded.webhookId)}, the client's webhook now is ${JSON.stringify(now.webhookId)}`,
        };
  if (recorded.createdAt !== undefined && now.createdAt !== undefined)
    return eq(recorded.createdAt, now.createdAt)
      ? { same: true, how: `the same createdAt ${JSON.stringify(now.createdAt)}` }
      : {
          same: false,
          how: `the record is of a webhook created at ${JSON.stringify(recorded.createdAt)}, the client's webhook now was created at ${JSON.stringify(now.createdAt)}`,
        };
  return {
    same: true,
    how: 'the server shows neither webhookId nor createdAt, so that it is the webhook the record was made of is not confirmed',
  };
}

/** Where the records of the run's target are kept, or undefined when the target comes from no config file. */
function recordFile(carry: CarrySettings): string | undefined {
  return carry.folder === undefined ? undefined : carriedFile(carry.folder);
}

/** The record of `clientId`'s creation, checked; undefined when none is kept (or none can be). */
export async function findCreation(
  carry: CarrySettings,
  clientId: string,
): Promise<FoundRecord<CreationData> | undefined> {
  const file = recordFile(carry);
  if (file === undefined) return undefined;
  return findCarried<CreationData>(file, { subject: CREATION_SUBJECT, baseUrl: carry.baseUrl, clientId }, carry.signer);
}

/** Keeps (or replaces) the record of `clientId`'s creation; a record that cannot be written is said, not thrown. */
export async function keepCreation(
  carry: CarrySettings,
  clientId: string,
  data: CreationData,
): Promise<{ file: string; digest: string } | { problem: string } | undefined> {
  const file = recordFile(carry);
  if (file === undefined) return undefined;
  try {
    const record = {
      subject: CREATION_SUBJECT,
      target: carry.target,
      baseUrl: carry.baseUrl,
      clientId,
      observedAt: data.post.at,
      suiteVersion: suiteVersion(),
      data,
    };
    return { file, digest: await keepCarried(file, record, carry.signer) };
  } catch (e) {
    return { problem: `the record of the creation could not be written to ${file}: ${(e as Error).message}` };
  }
}

/** The creating request as a provider finds it in its logs. */
export function postFacts(res: HttpResponse): CreationData['post'] {
  const key = headerValue(res.exchange.request.headers, 'x-idempotency-key');
  return {
    // The suite's own request: only observed traffic may lack a time.
    at: res.exchange.startedAt!,
    status: res.status,
    ...(key !== undefined ? { idempotencyKey: key } : {}),
    answer: describeResponse(res),
  };
}

/** "at 2025-… (POST /webhooks by client "x", X-Idempotency-Key k, answered 201)": the creation, to be found in logs. */
export function showPost(clientId: string, post: CreationData['post']): string {
  const key = post.idempotencyKey === undefined ? '' : `, X-Idempotency-Key ${post.idempotencyKey}`;
  return `at ${post.at} (POST /webhooks by client ${JSON.stringify(clientId)}${key}, answered ${post.status})`;
}

// ---- the second client ---------------------------------------------------------------------------------------------

/** Sends as the second client: its client id, its key, its token (every request recorded against the check). */
export interface SecondClient {
  readonly clientId: string;
  send(spec: RequestSpec): Promise<HttpResponse>;
}

/**
 * `signal`: the requests' own (a clean-up's, not cut when the check's requests are, see suites/kit/clean-up.ts).
 */
export function secondClient(
  ctx: CheckContext,
  client: WebhookClient,
  token: string | null,
  signal?: AbortSignal,
): SecondClient {
  return {
    clientId: client.clientId,
    send: (spec) =>
      ctx.send({
        ...(signal ? { signal } : {}),
        ...spec,
        token: spec.token === undefined ? token : spec.token,
        clientId: spec.clientId === undefined ? client.clientId : spec.clientId,
        sign: spec.sign === false ? false : { keyId: client.keyId, privateKey: client.privateKey, ...spec.sign },
      }),
  };
}

/** A token for the second client, or why it got none. */
export async function secondToken(
  ctx: CheckContext,
  client: WebhookClient,
): Promise<{ token: string; res: HttpResponse } | { problem: string; res: HttpResponse }> {
  const res = await secondClient(ctx, client, null).send(tokenRequest(client));
  const parsed = parseJson(res.text);
  const found = res.status >= 200 && res.status <= 299 && parsed.ok ? tokenRecordOf(parsed.value) : undefined;
  if (found === undefined)
    return { problem: `its token request (POST /oauth/token) answered ${describeResponse(res)}`, res };
  return { token: found.token, res };
}

// ---- what to ask for ---------------------------------------------------------------------------------------------

/** The set-up problem when no creation can be observed or carried forward, with the exact thing to ask for. */
export function noCreationFinding(
  carry: CarrySettings,
  target: { identity: WebhookIdentity; record: string },
  second?: { state: string },
): SetupFinding {
  const file = recordFile(carry);
  const client = (id: string) => `client ${JSON.stringify(id)}`;
  const field = `targets.${carry.target}.webhookClient`;
  const keep =
    file === undefined
      ? ''
      : `; keep ${file} between runs (commit it, or cache it in CI): later runs carry forward the creation it records`;
  const problem = `no webhook creation can be observed: ${client(carry.clientId)} has a webhook already (${showIdentity(target.identity)}) and the interface has no DELETE; ${target.record}${second ? `; ${second.state}` : ''}`;
  const fix =
    carry.webhookClient === undefined
      ? `ask the provider for a second client with no webhook (its client id and secret, and the key id its signing key is registered under) and set it as ${field} {"clientId", "clientSecret", "keyId", "privateKeyFile"} in the config${keep}`
      : `ask the provider for another client with no webhook (${client(carry.webhookClient.clientId)} of ${field} has one now) and set ${field} to it${keep}`;
  return { problem, fix };
}

/** The set-up problem of a second client whose token request is refused. */
export function secondClientRefused(carry: CarrySettings, problem: string): SetupFinding {
  return {
    problem: `the webhook client ${JSON.stringify(carry.webhookClient!.clientId)} (targets.${carry.target}.webhookClient) got no token: ${problem}`,
    fix: `check targets.${carry.target}.webhookClient: clientId, clientSecret, keyId and the private key must be those of a client of this server (the key id defaults to the target's, the key to the target's key)`,
  };
}

/** Why a record found for a client cannot be carried forward, or that none is kept, in words. */
export function recordState(
  carry: CarrySettings,
  found: FoundRecord<CreationData> | undefined,
  now: WebhookIdentity,
): string {
  const file = recordFile(carry);
  if (file === undefined) return 'no record of its creation can be kept (the target comes from no config file)';
  if (found === undefined) return `no earlier run's record of its creation is kept in ${file}`;
  if (!found.ok) return found.problem;
  return `the record in ${file} is of another webhook (${sameWebhook(found.record.data.webhook, now).how})`;
}
