// The webhook of the config's second client (`webhookClient`, suites/webhooks/helpers/creation-records.ts): created subscribed to
// ["ALL"] at the run's receiver, then narrowed to WEBHOOK.CREATED alone. Before its POST /webhooks the run writes an
// entry to the restore journal (kind "webhook-second-client": which client, the url), settled once the narrowing is
// done; a run interrupted in between narrows it in its restores, and a run killed outright leaves the entry for the
// next run (or `conformance restore`), which narrows it as that client. The journal never holds the client's secret:
// the replay takes its credentials from the target's config (`webhookClient`) as it is then.
import type { EntryInput, EntryPutBack } from '../../src/journal/journal.js';
import type { PutBackSender } from '../../src/engine/index.js';
import type { WebhookClient } from '../../src/config/types.js';
import type { HttpResponse, RequestSpec } from '../../src/http/client.js';
import { parseJson } from '../../src/http/json.js';
import { describeResponse } from './expect.js';
import { isSuccess } from './negative.js';
import { revokeRequest } from './revoke.js';
import { tokenRecordOf, tokenRequest } from './session.js';
import { AUTOMATIC_SUBSCRIPTION, narrowLeftWebhook } from './webhook-restore.js';

const ENTRY_SECOND = 'webhook-second-client';

/** "the webhook of the webhook client "x"": what the lines say was put back, or was not. */
export function secondWebhookWhat(clientId: string): string {
  return `the webhook of the webhook client ${JSON.stringify(clientId)}`;
}

/** The request that narrows it by hand, as that client. */
function narrowByHand(clientId: string, url: string): string {
  return `as client ${JSON.stringify(clientId)} (webhookClient): PUT /webhooks ${JSON.stringify({ url, subscriptions: [AUTOMATIC_SUBSCRIPTION] })}`;
}

/** The journal entry written before the second client's POST /webhooks (subscriptions ["ALL"]) to `url`. */
export function secondWebhookEntry(clientId: string, url: string): EntryInput {
  return {
    subject: `the webhook configuration of client ${JSON.stringify(clientId)}`,
    kind: ENTRY_SECOND,
    what: secondWebhookWhat(clientId),
    byHand: narrowByHand(clientId, url),
    data: { clientId, url },
  };
}

/**
 * Narrows the second client's webhook at `url` (the one the run created) to WEBHOOK.CREATED, sending with `send` (as
 * that client); a webhook at another url, or none, is left as it is. What is said names the client.
 */
export async function narrowSecondWebhook(
  send: (spec: RequestSpec) => Promise<HttpResponse>,
  clientId: string,
  url: string,
): Promise<EntryPutBack> {
  const what = secondWebhookWhat(clientId);
  const put = await narrowLeftWebhook({ send }, [url]);
  if (!put.ok) return { ok: false, problem: put.problem, byHand: narrowByHand(clientId, url) };
  return { ok: true, said: `${what} (${put.note})` };
}

/**
 * Puts back an entry of kind "webhook-second-client" (undefined for another kind): as the config's webhookClient, when
 * it is the client the entry names, a token, the narrowing, and the token revoked.
 */
export async function secondWebhookPutBack(
  entry: { kind: string; data: unknown; byHand: string },
  sender: PutBackSender,
): Promise<EntryPutBack | undefined> {
  if (entry.kind !== ENTRY_SECOND) return undefined;
  const data = (typeof entry.data === 'object' && entry.data !== null ? entry.data : {}) as Record<string, unknown>;
  if (typeof data.clientId !== 'string' || typeof data.url !== 'string')
    return { ok: false, problem: 'the journal entry names no client or url', byHand: entry.byHand };
  const { clientId, url } = data as { clientId: string; url: string };
  const client = sender.config?.webhookClient;
  const field = sender.config ? `targets.${sender.config.name}.webhookClient` : 'webhookClient';
  if (client === undefined || client.clientId !== clientId || sender.sendBare === undefined)
    return {
      ok: false,
      problem: `its credentials are not in the config: ${field} ${client === undefined ? 'is not set' : `is client ${JSON.stringify(client.clientId)} now`}`,
      byHand: entry.byHand,
    };
  const bare = sender.sendBare;
  const as = (token: string | null) => (spec: RequestSpec) => bare(asClient(client, token, spec));
  const res = await as(null)(tokenRequest(client));
  const parsed = parseJson(res.text);
  const token = isSuccess(res) && parsed.ok ? tokenRecordOf(parsed.value)?.token : undefined;
  if (token === undefined)
    return {
      ok: false,
      problem: `${field} got no token: POST /oauth/token answered ${describeResponse(res)}`,
      byHand: entry.byHand,
    };
  try {
    return await narrowSecondWebhook(as(token), clientId, url);
  } finally {
    await as(token)(revokeRequest(token)).catch(() => undefined);
  }
}

/** A request as the second client: its client id, its key, its token. */
function asClient(client: WebhookClient, token: string | null, spec: RequestSpec): RequestSpec {
  return {
    ...spec,
    token: spec.token === undefined ? token : spec.token,
    clientId: spec.clientId === undefined ? client.clientId : spec.clientId,
    sign: spec.sign === false ? false : { keyId: client.keyId, privateKey: client.privateKey, ...spec.sign },
  };
}
