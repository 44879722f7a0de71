// Suite `resources`: every endpoint's envelope, schema and errors, and consistency across resources (spec "Resources
// and their fields", "Endpoints", "Errors").
// The checks are listed one by one in the order of the reports (the areas interleave there); each lives in the file
// of its area (suites/resources/<area>.ts), code several areas share in helpers/.
import { defineSuite, type SuiteRun } from '../../src/engine/index.js';
import { newRun, type ResourcesRun } from './helpers/run-state.js';
import {
  customersGet,
  customersNoToken,
  customersUpdate,
  customersUpdateMinimal,
  customersUpdateInvalid,
  customersReferenceIdUnique,
  customersUpdateUnknown,
} from './customers.js';
import { accountsGet, accountsList, accountsQueryValidated, accountsConsistent } from './accounts.js';
import { assetsGet } from './assets.js';
import {
  transactionsGet,
  transactionsList,
  transactionsQueryValidated,
  transactionsConsistent,
} from './transactions.js';
import { instrumentsList, instrumentsTypeValidated, instrumentsAnnouncedTypesRejected } from './instruments.js';
import { fieldsPresent } from './fields.js';
import { errorsNoToken, errorsNotFound, errorsMalformedId, errorsBody, errorsMessageText } from './errors.js';
import { fixturesOwned } from './fixtures.js';
import { listsIsolated, listsUnknownCustomer } from './lists.js';
import { numbersSafeIntegers } from './numbers.js';
import { idsUnique } from './ids.js';
import { timestampsUnix } from './timestamps.js';
import {
  infoTimestampUnit,
  infoExtraFields,
  infoCustomerFields,
  infoInstrumentsAvailable,
  infoCustomerList,
  infoValidationStatus,
  infoBodySize,
  infoCustomerTransitions,
} from './info.js';
import { responsesJsonType } from './responses.js';

export default defineSuite({
  name: 'resources',
  title: 'Resources: envelopes, schemas, errors',
  setup: newRun,
  // The unit of "Unix timestamp" the server counts is said once for the whole run: every timestamp was judged in it.
  teardown(state: ResourcesRun, run: SuiteRun): string[] {
    if (state.timestampUnit !== undefined) run.note(`timestamps: ${state.timestampUnit}`);
    return [];
  },
  checks: [
    customersGet,
    accountsGet,
    assetsGet,
    transactionsGet,
    accountsList,
    instrumentsList,
    transactionsList,
    fieldsPresent,
    customersNoToken,
    errorsNoToken,
    errorsNotFound,
    errorsMalformedId,
    errorsBody,
    errorsMessageText,
    accountsQueryValidated,
    transactionsQueryValidated,
    instrumentsTypeValidated,
    instrumentsAnnouncedTypesRejected,
    accountsConsistent,
    transactionsConsistent,
    fixturesOwned,
    listsIsolated,
    listsUnknownCustomer,
    customersUpdate,
    customersUpdateMinimal,
    customersUpdateInvalid,
    customersReferenceIdUnique,
    numbersSafeIntegers,
    idsUnique,
    timestampsUnix,
    infoTimestampUnit,
    responsesJsonType,
    infoExtraFields,
    infoCustomerFields,
    infoInstrumentsAvailable,
    infoCustomerList,
    infoValidationStatus,
    infoBodySize,
    infoCustomerTransitions,
    customersUpdateUnknown,
  ],
});
