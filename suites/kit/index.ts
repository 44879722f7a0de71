// The Investment-API toolbox's one face: what checks use beside the engine (token session, expectations, negative
// probes, page walks, resource helpers, restores), and the parts of src/ they need (the HTTP client's types, JSON
// reading, signatures, schemas, the webhook receiver). Suites import only this and src/engine/index.ts.
export type { FixtureName } from '../../src/config/types.js';
export { TransportError, dropHeader } from '../../src/http/client.js';
export type { HttpResponse, RequestSpec } from '../../src/http/client.js';
export type { Exchange } from '../../src/http/exchange.js';
export { idKey, isUnsafeNumber, parseJson } from '../../src/http/json.js';
export { generateEd25519 } from '../../src/http/keys.js';
export { headerValue, pathAndQuery, setHeader } from '../../src/http/message.js';
export type { SignatureParam } from '../../src/http/signature-base.js';
export { nowSeconds, signatureLabels } from '../../src/http/signature.js';
export { pool } from '../../src/pool.js';
export { DEFAULT_DEADLINE_MS, describeDelivery, startReceiver } from '../../src/receiver/receiver.js';
export type { Delivery, WebhookReceiver } from '../../src/receiver/receiver.js';
export { describeKeyForm, findWebhookKey } from '../../src/receiver/webhook-key.js';
export type { FoundKey } from '../../src/receiver/webhook-key.js';
export { validateAgainst } from '../../src/schemas.js';
export { expectNoToken, readProbe, tokenIn, withTokens } from './checks-auth.js';
export type { IssuedToken, TokenJar } from './checks-auth.js';
export { describeResponse, errorBodyOf, expectEnvelope, expectErrorBody, expectJson, expectRejection, expectSchema, expectStatus, expectSuccess, invalidFields, isJsonMediaType, mediaTypeOf, noteErrorBody, readEnvelope, redirectNote } from './expect.js';
export { alterSignature, coveredComponents, inSpecOrder, isRejection, isSuccess, relabelSignature, replaceBody, sendWithControl, signedBody } from './negative.js';
export { failCleanUp } from './clean-up.js';
export { customerBody, customerDifferences, customerSnapshot, readCustomer, readCustomerOrSkip, restoreCustomer, withRestoredCustomer } from './customer-restore.js';
export type { CustomerSnapshot } from './customer-restore.js';
export { AUTOMATIC_SUBSCRIPTION, configOf, locateWebhook, restoreWebhook, sameConfig, sameSet, saveWebhook, showWebhook, WEBHOOK_TABLE, webhookOfResponse, whereWebhook, withRestoredWebhook } from './webhook-restore.js';
export type { SavedWebhook, WebhookConfig } from './webhook-restore.js';
export { describeWalk } from './pages.js';
export type { WalkResult } from './pages.js';
export { differingFields, exactValue, expectItems, getList, getResource, idSegment, isObject, orderBreak, orderOf, pageOfItem, schemaFields, unknownFields, unsafeNumbersOf, walkList } from './resource-helpers.js';
export type { ListPage, Query } from './resource-helpers.js';
export { requestToken, revokeRequest, revokeToken, tokenRecordOf, tokenRequest } from './session.js';
export { Session } from './session.js';
export { SHARED_STATES, stateChangedBy } from './shared-state.js';
export { containsValue, eventNameOf, KNOWN_EVENTS, topLevelFields, valuesNamed } from '../../src/receiver/payload.js';
