// The Investment-API toolbox's one face: what checks use beside the engine, and the parts of src/ they need. Suites
// import only this and src/engine/index.ts (eslint.config.js holds them to it).

// ---- the run's token session, tokens of a check's own, and the state on the target that checks share -------------
export {
  Session,
  knownRevokeBody,
  requestToken,
  revokeShapeOf,
  revokeToken,
  tokenRecordOf,
  tokenRequest,
} from './session.js';
export type { TokenResult } from './session.js';
export { REVOKE_BODY_SAID, RevokeShape, revokeRequest } from './revoke.js';
export type { RevokeBody } from './revoke.js';
export { signingNote } from './signing-profile.js';
export { expectNoToken, readProbe, tokenIn, withTokens } from './checks-auth.js';
export type { IssuedToken, TokenJar } from './checks-auth.js';
export { SHARED_STATES, TURN_STATES, SUITE_ORDER_STATES, stateChangedBy } from './shared-state.js';
export { readLabel, sharedGet, takeShared } from './shared-reads.js';
export type { SharedStore } from './shared-reads.js';

// ---- expectations on an answer --------------------------------------------------------------------------------------
export {
  describeResponse,
  errorBodyOf,
  expectErrorBody,
  expectJson,
  expectRejection,
  expectSchema,
  expectStatus,
  expectSuccess,
  invalidFields,
  isJsonMediaType,
  mediaTypeOf,
  noteErrorBody,
  readEnvelope,
  ENVELOPE_OWNER,
  envelopeDefects,
  redirectNote,
} from './expect.js';
export type { AbsentTo } from './expect.js';
export { validateAgainst, type SchemaProblem } from '../../src/schemas.js';

// ---- negative probes: requests altered after signing -----------------------------------------------------------------
export {
  alterSignature,
  componentsWith,
  coveredComponents,
  inSpecOrder,
  isRejection,
  isSuccess,
  relabelSignature,
  replaceBody,
  sendWithControl,
  signedBody,
  signingProfile,
  signingRecord,
} from './negative.js';

// ---- resources and page walks ----------------------------------------------------------------------------------------
export {
  differingFields,
  exactValue,
  expectItems,
  fieldsNotGiven,
  getResource,
  idSegment,
  isObject,
  listPageOf,
  resourceOf,
  orderBreak,
  orderOf,
  pageOfItem,
  schemaFields,
  unknownFields,
  unsafeNumbersOf,
  walkList,
} from './resource-helpers.js';
export type { ListPage, Query } from './resource-helpers.js';
export { describeWalk, walkPages } from './pages.js';
export type { WalkResult } from './pages.js';
export {
  describeUnit,
  inSeconds,
  learnUnit,
  observedResourceTimestampUnit,
  resourceTimestampUnit,
  timestampUnitOf,
  unitNear,
} from './timestamps.js';
export type { TimestampUnit } from './timestamps.js';

// ---- the two restores of a partner's live data -----------------------------------------------------------------------
export { failCleanUp } from './clean-up.js';
export { putBackEntry } from './put-back.js';
export {
  customerBody,
  customerDifferences,
  customerSnapshot,
  readCustomer,
  readCustomerOrSkip,
  restoreCustomer,
  withRestoredCustomer,
} from './customer-restore.js';
export type { CustomerSnapshot } from './customer-restore.js';
export {
  AUTOMATIC_SUBSCRIPTION,
  configOf,
  journalWebhookChange,
  leaveWebhookQuiet,
  locateWebhook,
  restoreWebhook,
  sameConfig,
  sameSet,
  saveWebhook,
  showWebhook,
  WEBHOOK_TABLE,
  webhookOfResponse,
  whereWebhook,
  withRestoredWebhook,
} from './webhook-restore.js';
export type { SavedWebhook, WebhookConfig } from './webhook-restore.js';
export { narrowSecondWebhook, secondWebhookEntry, secondWebhookWhat } from './second-client-restore.js';

// ---- the webhook receiver and what deliveries carry ------------------------------------------------------------------
export { DEFAULT_DEADLINE_MS, describeDelivery, startReceiver } from '../../src/receiver/receiver.js';
export { certificateCovers, certificateFingerprint } from '../../src/receiver/certificate.js';
export { isLoopbackHost } from '../../src/http/loopback.js';
export type { Delivery, DeliveryProblem, ProblemKind, WebhookReceiver } from '../../src/receiver/receiver.js';
export { describeKeyForm, findWebhookKey } from '../../src/receiver/webhook-key.js';
export type { FoundKey } from '../../src/receiver/webhook-key.js';
export {
  containsValue,
  eventMatcher,
  findEvent,
  KNOWN_EVENTS,
  topLevelFields,
  valuesNamed,
} from '../../src/receiver/payload.js';

// ---- HTTP, JSON and signatures, as the client sends and reads them ---------------------------------------------------
export { TransportError, dropHeader } from '../../src/http/client.js';
export type { HttpResponse, RequestSpec } from '../../src/http/client.js';
export type { Exchange } from '../../src/http/exchange.js';
// What `conformance client` recorded, for the client pack (suites/client/).
export type {
  ClientRequest,
  ClientRunRecord,
  ClientTraffic,
  SandboxAct,
  ScenarioName,
  ScenarioRecord,
} from '../../src/client/types.js';
export { idKey, isUnsafeNumber, parseJson } from '../../src/http/json.js';
export { generateEd25519 } from '../../src/http/keys.js';
export { headerValue, headerValues, pathAndQuery, setHeader } from '../../src/http/message.js';
export type { SignatureParam } from '../../src/http/signature-base.js';
export {
  coversTarget,
  describeProfile,
  nowSeconds,
  requiredComponentsFor,
  signatureLabels,
  verifySignature,
} from '../../src/http/signature.js';
export type { SignatureVerdict } from '../../src/http/signature.js';
export { verifyContentDigest } from '../../src/http/digest.js';
export { pool } from '../../src/pool.js';
export type { FixtureName } from '../../src/config/types.js';
export type { WebhookClient } from '../../src/config/types.js';
// Observations a later run carries forward (a webhook's creation, once per client): suites/webhooks/helpers/creation-records.ts.
export { carriedFile, findCarried, keepCarried } from '../../src/evidence/carry-forward.js';
export type { CarriedRecord, CarriedSigner, FoundRecord } from '../../src/evidence/carry-forward.js';
export { suiteVersion } from '../../src/version.js';
// Judging traffic the suite did not send (issue 30): the judge pack, its session, the answers a check's `observe` reads.
export {
  NOT_EXERCISED,
  cite,
  isObserved,
  bothSidesPack,
  judgeObserved,
  judgePack,
  observedAnswers,
  observedDeliveries,
  observedLine,
  observedPath,
  observedTraffic,
  observingPack,
} from './judge.js';
export type { JudgePack, ObservedDelivery } from './judge.js';
// Verifying a delivery observed in traffic, for the server's delivery checks and the client's receiver check.
export { deliveryLine, verifyObserved } from './delivery-verification.js';
export type { ObservedVerdict } from './delivery-verification.js';
// The client's side of observed traffic: its requests as the client checks read them, and the client judge pack's session.
export { ClientTrafficSession, clientTrafficOf } from './client-traffic.js';
export type { ObservedClient } from './client-traffic.js';
export { ObservingSession } from './observing-session.js';
