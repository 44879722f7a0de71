// Suite `webhooks`: configuration, the published key, deliveries and their verification (spec "Webhook", "Webhooks",
// "Events", "Authentication" 8). Deliveries arrive at the run's receiver (src/receiver/), which verifies each one.
//
// The checks share one state per run: the client's configuration as it was before the suite (saved by the suite's
// setup, before any check runs; restored by the last check, else by the teardown), the receiver's registration and the
// published key. Checks run in declaration order, one at a time (the suite shares `webhook-config`: other suites'
// checks run alongside, and only a check that changes the configuration waits for it); each sets up what it needs
// itself, so a --grep selection still works.
//
// One cause, one failure: a delivery that arrives but does not verify still shows that its event was emitted. The event
// checks take it as such and record the verification failure as seen on their way, for the check that owns it:
// webhooks.delivery.verified (the digest and a signature by the published key, REQ-EVT-14, with webhooks.key.published
// for which key signed), webhooks.delivery.digest-covered (the signature covers the digest, REQ-EVT-19) and
// webhooks.delivery.in-window (the signature's window holds when it arrives, REQ-AUTH-09).
//
// Where a delivery names its event is not shown (REQ-EVT-15, REQ-EVT-18): the receiver finds the event's name among
// its payload members and its header values (src/receiver/payload.ts findEvent), and the checks record where. A
// request that bundles several events (a batch: a list of objects each naming an event, readEvents) is read as one
// delivery per event, each judged as a delivery of its event: no check depends on how a server groups its events.
// What concerns the request (its digest, signature, body, Content-Type) is judged once per request.
//
// A server that never reaches the receiver at all (it refuses the receiver's certificate, or cannot connect) shows a
// set-up problem of the run, not a defect: the checks that need deliveries are skipped with it (ctx.setupProblem), and
// the run states it once with its fix. A server that reaches the receiver and still misses an event fails for it.
//
// The checks are declared one file per id area (webhooks.config.* in config.ts, …) and listed here in the order they
// run, which interleaves the areas; helpers/ holds the code several areas share (issue 28).
import {
  DEFAULT_DEADLINE_MS,
  isLoopbackHost,
  leaveWebhookQuiet,
  restoreWebhook,
  saveWebhook,
  startReceiver,
  type SavedWebhook,
} from '../kit/index.js';
import { defineSuite, type SuiteRun } from '../../src/engine/index.js';
import { showPost, type CarrySettings } from './helpers/creation-records.js';
import { initialState, type WebhooksRun, type Creation } from './helpers/state.js';
import { eventPlaces, batchesSeen } from './helpers/deliveries.js';
import { configSaved, configGet, configFields, configRestored } from './config.js';
import { rejectHttpUrl, rejectNotAUrl } from './reject.js';
import { createAnswer, createAutoSubscription } from './create.js';
import { keyPublished } from './key.js';
import {
  eventsWebhookCreated,
  eventsTest,
  eventsAuthCreated,
  eventsAuthDeleted,
  eventsWebhookUpdated,
} from './events.js';
import { testAccepted } from './test.js';
import { updateReplaces, updateUrl } from './update.js';
import { subscriptionsNames, subscriptionsExact, subscriptionsDomain, subscriptionsFiltered } from './subscriptions.js';
import { infoUnknownSubscription } from './info.js';
import {
  deliveryJson,
  deliveryVerified,
  deliveryDigestCovered,
  deliveryInWindow,
  deliveryObserved,
} from './delivery.js';
import { openObserved } from './open.js';

const lifecycle = {
  options: {
    deadlineMs: { default: DEFAULT_DEADLINE_MS, description: 'how long a webhook check waits for a delivery, in ms' },
  },
  // Deliveries can only be received while the receiver listens: from before the first webhook check to the end of the run.
  async setup(run: SuiteRun): Promise<WebhooksRun> {
    const settings = run.config.webhook;
    // Said once, before any check waits in vain: a certificate made for this run alone can only be trusted by a server
    // of this machine (the built-in target trusts the one its process makes).
    if (settings.tls === 'self-signed' && !isLoopbackHost(new URL(run.target.baseUrl).hostname))
      run.note(
        `webhook.tls is "self-signed": the receiver makes a new certificate for each run, which a server not on this machine cannot trust, so its deliveries will not arrive. Make a lasting one with \`npx conformance keygen\`, set webhook.tls to {"certFile", "keyFile"} of it and hand it to the provider (docs/webhook-receiver.md)`,
      );
    // The client's configuration as it was before the suite, saved before any check (of this suite or another that
    // shares the configuration) can change it: the checks restore it, else the teardown does. Read before the receiver
    // starts, so that nothing is left listening should it throw.
    const saved = await saveWebhook(run).catch((e: unknown): SavedWebhook => ({
      kind: 'unknown',
      reason: `GET /webhooks failed: ${(e as Error)?.message ?? String(e)}`,
    }));
    const receiver = await startReceiver(settings, { deadlineMs: run.options.deadlineMs! });
    // Behind webhook.publicUrl, the run's own request through it (src/receiver/probe.ts), in the background: evidence
    // for a set-up problem, and for reading back deliveries a proxy rewrote.
    void receiver.probe();
    const carry: CarrySettings = {
      target: run.target.name,
      baseUrl: run.target.baseUrl,
      clientId: run.target.clientId,
      folder: run.config.configFolder,
      signer: { keyId: run.config.keyId, privateKey: run.config.privateKey },
      webhookClient: run.config.webhookClient,
    };
    return { receiver, settings, carry, state: initialState(saved) };
  },
  /** Puts back a configuration the suite changed and did not restore (its restore check left out, or failed). */
  async teardown(w: WebhooksRun, run: SuiteRun): Promise<string[]> {
    try {
      // Where the server names its events is not shown (REQ-EVT-15, REQ-EVT-18): said once for the run when it is not
      // the payload, or when a delivery named two events, since every event check read the deliveries that way.
      const all = w.receiver.arrivals;
      const inHeader = all.some((d) => d.event.at?.startsWith('header ') === true);
      const ambiguous = all.find((d) => d.event.ambiguity !== undefined);
      if (inHeader || ambiguous)
        run.note(
          `webhook deliveries name their event at ${eventPlaces(all) || '(nowhere)'}${ambiguous ? `; delivery #${ambiguous.seq}: ${ambiguous.event.ambiguity}` : ''}; where is not shown (REQ-EVT-15, REQ-EVT-18), and the webhook checks read it there`,
        );
      // Several events in one request (REQ-EVT-15: payload fields not shown): said once, since every check read them so.
      const batches = batchesSeen(all);
      if (batches !== undefined)
        run.note(
          `webhook deliveries bundle events: ${batches}; each event of a batch is read as a delivery of its own (REQ-EVT-15 leaves the payload open)`,
        );
      // A proxy in front that rewrote the deliveries' path, read back: said once, since every check judged them so.
      const rewrite = w.receiver.rewriteNote();
      if (rewrite !== undefined) run.note(rewrite);
      const st = w.state;
      const creation = await st.creation?.catch(() => undefined);
      const said = creation && creationNote(creation, w.carry);
      if (said) run.note(said);
      // No webhook before: the one the suite created stays (no DELETE), narrowed so that it draws no delivery.
      if (st.changed && st.saved.kind === 'none') return await leaveWebhookQuiet(run, st.saved, [w.receiver.url]);
      if (!st.changed || st.restored || st.saved.kind !== 'webhook') return [];
      const saved = st.saved.config;
      const restored = await restoreWebhook(run, saved);
      return restored.ok ? [] : [restored.line];
    } finally {
      await w.receiver.stop();
      // The deliveries as traffic, for the run's --har: `conformance judge` verifies them again from it.
      run.received(w.receiver.traffic());
    }
  },
};

/** What the run says once of how it knew the creation: carried forward, or observed with the second client. */
function creationNote(c: Creation, carry: CarrySettings): string | undefined {
  if (c.kind === 'carried')
    return `webhook creation carried forward, not observed in this run (${c.why}): the creation checks report the creation observed ${showPost(c.clientId, c.record.data.post)} (${c.how}; record ${c.file}, sha256 ${c.digest})`;
  if (c.kind !== 'observed') return undefined;
  const kept =
    c.kept === undefined
      ? carry.folder === undefined
        ? '; no record kept (the target comes from no config file), so a later run against the same client cannot carry it forward'
        : ''
      : 'problem' in c.kept
        ? `; ${c.kept.problem}`
        : `; kept for later runs in ${c.kept.file} (sha256 ${c.kept.digest})`;
  if (c.by === 'webhookClient')
    return `webhook creation observed with the webhook client ${JSON.stringify(c.clientId)} (client ${JSON.stringify(carry.clientId)} has a webhook already)${kept}; ${c.left ?? 'it created no webhook'}`;
  // The target's own creation, where no record can be kept (the built-in target, made afresh each run): nothing to say.
  return c.kept === undefined ? undefined : `webhook creation observed${kept}`;
}

// ---- the checks ------------------------------------------------------------------------------------------------

// One configuration per client, saved by the setup and restored by the last check, and one stream of deliveries.
export default defineSuite({
  name: 'webhooks',
  title: 'Webhooks: configuration, key, deliveries and their verification',
  uses: ['webhook-config'],
  receiver: true,
  ...lifecycle,
  checks: [
    configSaved,
    rejectHttpUrl,
    rejectNotAUrl,
    createAnswer,
    createAutoSubscription,
    configGet,
    configFields,
    keyPublished,
    eventsWebhookCreated,
    testAccepted,
    eventsTest,
    eventsAuthCreated,
    eventsAuthDeleted,
    eventsWebhookUpdated,
    subscriptionsFiltered,
    updateReplaces,
    updateUrl,
    subscriptionsNames,
    infoUnknownSubscription,
    subscriptionsExact,
    subscriptionsDomain,
    deliveryJson,
    deliveryVerified,
    deliveryDigestCovered,
    deliveryInWindow,
    openObserved,
    deliveryObserved,
    configRestored,
  ],
});
