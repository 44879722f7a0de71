// The webhooks suite's state in one run, which every area shares (see ../index.ts): the receiver the setup starts, the
// client's configuration as it was before the suite (saved by the setup, before any check can change it), the
// receiver's registration, the published key, and how the run knows a webhook's creation.
import {
  type Delivery,
  type FoundKey,
  type HttpResponse,
  type SavedWebhook,
  type WebhookReceiver,
  type CarriedRecord,
} from '../../kit/index.js';
import { type CheckContext, type SetupFinding, type SuiteRun } from '../../../src/engine/index.js';
import { type CarrySettings, type CreationData, type WebhookIdentity } from './creation-records.js';

// ---- the suite's state -----------------------------------------------------------------------------------------

export interface Registration {
  via: 'POST' | 'PUT';
  res: HttpResponse;
  /** The receiver's cursor before the registering request: its WEBHOOK.CREATED/UPDATED comes after it. */
  cursor: number;
  /** The Webhook the answer carries, if it carries one. */
  webhook: Record<string, unknown> | undefined;
}

export interface SuiteState {
  saved: SavedWebhook;
  /** Whether the suite sent a request that changes (or, on a faulty server, may change) the configuration. */
  changed: boolean;
  /** Whether the restore check put the saved configuration back (else the teardown tries). */
  restored: boolean;
  registration?: Registration;
  registrationProblem?: string;
  key?: FoundKey;
  keyProblem?: string;
  /** The answer of the GET /webhooks/key that gave the key, or failed to. */
  keyRes?: HttpResponse;
  /** What was seen of a key that changed during the run (INFO). */
  keyChanges: string[];
  /** The list last set successfully, to skip a PUT that would change nothing. */
  subscriptions?: string[];
  /** Token ids of the tokens the suite issued, to tell their AUTH deliveries apart. */
  tokenIds: Set<string>;
  /** Why nothing can reach the receiver, once a wait that ran out showed it (see unreached): a set-up problem. */
  unreached?: SetupFinding;
  /** Whether the run's one confirming POST /webhooks/test was sent (see unreached). */
  probed: boolean;
  /** That POST /webhooks/test: its answer, the receiver's cursor before it, and when it was answered. */
  confirm?: { res: HttpResponse; at: number };
  /** Delivery latencies (ms) from the request that caused the event. */
  latencies: number[];
  /** Events the run has seen delivered: proof that the server emits them, whatever a later check's list selects. */
  delivered: Set<string>;
  /** The one POST /webhooks/test of the run and the receiver's cursor before it. */
  test?: { res: HttpResponse; cursor: number };
  /** How the run knows a webhook's creation (see creationOf). */
  creation?: Promise<Creation>;
  /** The receiver's cursors around the second client's creation: its deliveries come between (see ofSecondClient). */
  second?: { after: number; until?: number };
}

/** The suite's life in one run: the receiver its setup starts, and the state it begins with the saved configuration. */
export interface WebhooksRun {
  receiver: WebhookReceiver;
  /** The target's webhook settings: a set-up problem's fix names them. */
  settings: SuiteRun['config']['webhook'];
  /** Where creation records are kept and what signs them, and the second client (helpers/creation-records.ts). */
  carry: CarrySettings;
  state: SuiteState;
}

export const runOf = (ctx: CheckContext) => ctx.state as WebhooksRun;

export function receiverOf(ctx: CheckContext): WebhookReceiver {
  return runOf(ctx).receiver;
}

/** The state of this run, which the setup began with the configuration it saved. */
export function stateOf(ctx: CheckContext): SuiteState {
  return runOf(ctx).state;
}

/** The suite's state at its start: the client's configuration as the setup saved it, nothing changed yet. */
export function initialState(saved: SavedWebhook): SuiteState {
  return {
    saved,
    changed: false,
    restored: false,
    keyChanges: [],
    tokenIds: new Set<string>(),
    latencies: [],
    delivered: new Set<string>(),
    probed: false,
  };
}

/** A check that changes the configuration may run only when the configuration before the suite is known. */
export function mayChange(ctx: CheckContext, st: SuiteState): void {
  if (st.saved.kind === 'unknown')
    ctx.skip(`the current webhook configuration could not be saved (${st.saved.reason}), so the suite changes nothing`);
  st.changed = true;
  // The restore check puts it back; if it does not run or fails, the suite's teardown tries, and says what failed.
  st.restored = false;
}

// ---- a webhook's creation, observed once per client ----------------------------------------------------------

/** The creation a run observed: by the target's client, or by the config's second client (helpers/creation-records.ts). */
export interface Observed {
  kind: 'observed';
  by: CreationData['by'];
  clientId: string;
  /** The POST /webhooks that created it, and the receiver's cursor before it. */
  post: HttpResponse;
  cursor: number;
  /** GET /webhooks of that client after the creation. */
  shown: HttpResponse;
  /** The second client's: the WEBHOOK.CREATED delivery awaited after its POST, if it came. */
  delivery?: Delivery;
  /** The second client's: what was left of its webhook (no DELETE), and a key GET /webhooks/key did not give. */
  left?: string;
  keyProblem?: string;
  /** The record kept for later runs, filled in by each creation check. */
  data: CreationData;
  kept?: { file: string; digest: string } | { problem: string };
}

/** A creation an earlier run observed, on the webhook the client still has. */
export interface Carried {
  kind: 'carried';
  clientId: string;
  record: CarriedRecord<CreationData>;
  file: string;
  digest: string;
  /** Why it is not observed now, and what tells that the webhook now configured is the one it created. */
  why: string;
  how: string;
  identity: WebhookIdentity;
}

export type Creation =
  | Observed
  | Carried
  | { kind: 'none'; finding: SetupFinding }
  /** The run's own earlier request created the webhook, one the server should have refused: a defect judged elsewhere. */
  | { kind: 'spoilt'; reason: string };
