// The resources suite's checks of errors, identifiers, timestamps and media types (issue 14) against the reference
// server: clean in both variants, and each fault of theirs caught by the check meant for it and failing no other check
// of the suite (the whole suite against every fault is the detection matrix's: test/reference/detection-matrix.test.ts), with the
// mutable customer left as it was.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { startLocalTarget, type LocalTarget } from '../../../src/targets/local.js';
import { findFault } from '../../../src/reference/faults/catalog.js';
import type { Customer } from '../../../src/reference/store.js';
import { suites } from '../../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../../helpers/waits.js';

async function withTarget<T>(
  options: Parameters<typeof startLocalTarget>[0],
  body: (local: LocalTarget) => Promise<T>,
): Promise<T> {
  const local = await startLocalTarget(options);
  try {
    return await body(local);
  } finally {
    await local.stop();
  }
}

function run(local: LocalTarget, selection: Parameters<typeof runChecks>[0]['selection'] = {}): Promise<RunResult> {
  return runChecks({
    pack,
    target: local.target,
    suites,
    selection,
    failOn: 'should',
    suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
  });
}

const failing = (r: RunResult) => r.checks.filter((c) => c.failsRun).map((c) => c.id);
const errored = (r: RunResult) =>
  r.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.finding?.message}`);
const observation = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!.observations.join(' | ');
/**
 * The resources suite's run under each fault of the table below (one fault, selection resources), which later tests of
 * the same set-up read again; run alone (`-t`), such a test makes its run itself.
 */
const resourcesRuns = new Map<string, RunResult>();

describe.each(['strict', 'alt'] as const)(
  'the resources suite against the clean reference server (%s variant)',
  (variant) => {
    it('passes every check with no warning, and records the open points', async () => {
      const result = await withTarget({ variant }, (local) => run(local, { suites: ['resources'] }));
      const bad = result.checks
        .filter((c) => c.outcome !== 'pass')
        .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
      expect(bad).toEqual([]);
      // The reference names the rule a 401 broke (src/reference/rejection.ts); other errors carry the status.
      expect(observation(result, 'resources.errors.body')).toMatch(
        /: 401 → "TOKEN_MISSING", 404 → "404", 400 → "400", 401 → "CLIENT_SECRET_WRONG", 401 → "SIGNATURE_INVALID"$/,
      );
      expect(observation(result, 'resources.errors.message-text')).toContain('401 "Unauthorized"');
      expect(observation(result, 'resources.errors.no-token')).toContain('13 endpoints answered 401');
      expect(observation(result, 'resources.timestamps.unix')).toMatch(/updatedAt >= createdAt on (\d+) of \1/);
      expect(observation(result, 'resources.info.timestamp-unit')).toMatch(
        /^Unix timestamps count seconds \((\d+) of \1 timestamp\(s\) read\)$/,
      );
      expect(result.run.notes).toContainEqual(expect.stringMatching(/^timestamps: Unix timestamps count seconds /));
      expect(observation(result, 'resources.fields.present')).toMatch(
        /^every field present in GET \/assets\/6001, GET \/transactions\/\d+, the 6 item\(s\) of GET \/instruments, the \d+ item\(s\) of GET \/transactions$/,
      );
      expect(observation(result, 'resources.customers.update-invalid')).toMatch(
        /^refused, and the customer unchanged \(no customerId \(only firstName\): 400; .*referenceId "not-a-number" \(a string\): 400\)$/,
      );
      expect(observation(result, 'resources.info.instruments-available')).toContain(
        '1 of 6 instrument(s) listed have isAvailable false',
      );
      const extra = observation(result, 'resources.info.extra-fields');
      expect(extra).toContain('timeFrame values (allowed values not shown): "1D"');
      expect(extra).toContain('asset 6001: available = position − locked');
      expect(extra).toMatch(/requestType values \(not shown\): "BUY", "SELL"/);
      expect(observation(result, 'resources.customers.update-unknown')).toContain(
        'refused with 404; no customer was created',
      );
    });
  },
);

describe('one cause, one failure: the envelope', () => {
  it('an empty message on every answer fails its owner alone; the checks that read the envelope record it', async () => {
    await withTarget({ faults: ['resources.message-empty'] }, async (local) => {
      const result = await run(local, { suites: ['resources', 'ussd'] });
      expect(failing(result)).toEqual(['resources.customers.get']);
      const seers = result.checks.filter((c) =>
        (c.alsoSeen ?? []).some(
          (s) => s.ownedBy === 'resources.customers.get' && s.requirements.includes('REQ-ENV-04'),
        ),
      );
      expect(seers.map((c) => c.id)).toEqual(
        expect.arrayContaining(['resources.accounts.get', 'resources.customers.update', 'ussd.view.schema']),
      );
      for (const c of seers) expect(c.outcome, c.id).toBe('pass');
    });
  });

  it('an envelope defect its owner does not see fails the check that saw it (resources.accounts.get)', async () => {
    await withTarget({ faults: ['resources.account-envelope-code-number'] }, async (local) => {
      const result = await run(local, { suites: ['resources'] });
      expect(failing(result)).toEqual(['resources.accounts.get']);
      expect(result.checks.find((c) => c.id === 'resources.accounts.get')!.finding).toMatchObject({
        message: 'the envelope of GET /v1/accounts/5001 has code 200, not "200"',
        requirements: ['REQ-ENV-03'],
      });
    });
  });
});

describe('catches each fault with the check meant for it, and with no check of another requirement', () => {
  const cases: Array<[string, string[]]> = [
    ['resources.validation-error-shape', ['resources.errors.body']],
    // The 401 checks see the missing body too, and leave it to its owner (one cause, one failure).
    ['resources.error-body-missing', ['resources.errors.body']],
    ['resources.unauthorized-message-text', ['resources.errors.message-text']],
    ['resources.not-found-message-text', ['resources.errors.message-text']],
    ['resources.customer-update-unknown-accepted', ['resources.customers.update-unknown']],
    ['resources.customer-update-id-unchecked', ['resources.customers.update-invalid']],
    ['resources.customer-invalid-values-ignored', ['resources.customers.update-invalid']],
    ['resources.customer-field-types-ignored', ['resources.customers.update-invalid']],
    ['resources.customer-invalid-status-stored', ['resources.customers.update-invalid']],
    ['resources.reference-id-conflict-accepted', ['resources.customers.reference-id-unique']],
    ['resources.reference-id-duplicated', ['resources.ids.unique']],
    ['resources.account-listed-twice', ['resources.ids.unique']],
    ['resources.asset-timestamps-millis', ['resources.timestamps.unix']],
    ['resources.transaction-timestamps-microseconds', ['resources.timestamps.unix']],
    // A field left out of a table without a Required column: the presence check warns, the type checks pass.
    ['resources.instrument-field-missing', ['resources.fields.present']],
    ['resources.asset-field-missing', ['resources.fields.present']],
    ['resources.transaction-field-missing', ['resources.fields.present']],
    ['resources.json-as-text-plain', ['resources.responses.json-type']],
    ['resources.ussd-no-token-served', ['resources.errors.no-token']],
    ['resources.webhook-key-no-token-served', ['resources.errors.no-token']],
    // Collateral of earlier versions: these faults now fail only the checks of what they break.
    ['resources.customer-status-unknown', ['resources.customers.get']],
    [
      'resources.list-filter-leak',
      ['resources.lists.isolated', 'resources.accounts.consistent', 'resources.transactions.consistent'],
    ],
  ];
  it.each(cases)('%s', async (name, ids) => {
    const breaks = findFault(name)!.breaks;
    await withTarget({ faults: [name] }, async (local) => {
      const id = local.target.fixtures.mutableCustomerId!;
      const before = local.server.store.getCustomer(id);
      const result = await run(local, { suites: ['resources'] });
      resourcesRuns.set(name, result);
      const caught = failing(result);
      for (const check of ids) expect(caught, name).toContain(check);
      const collateral = result.checks
        .filter((c) => c.failsRun && !c.requirements.some((r) => breaks.includes(r.id)))
        .map((c) => c.id);
      expect(collateral, `${name}: checks that fail without citing ${breaks.join(', ')}`).toEqual([]);
      expect(errored(result)).toEqual([]);
      // Whatever the fault made the PUT checks do, the mutable customer is as it was.
      expect({ ...local.server.store.getCustomer(id)!, updatedAt: 0 }).toEqual({ ...before!, updatedAt: 0 });
    });
  });

  it('names what was wrong in each finding', async () => {
    const findings = new Map<string, string>();
    for (const [fault, check] of [
      ['resources.unauthorized-message-text', 'resources.errors.message-text'],
      ['resources.asset-timestamps-millis', 'resources.timestamps.unix'],
      ['resources.transaction-timestamps-microseconds', 'resources.timestamps.unix'],
      ['resources.asset-field-missing', 'resources.fields.present'],
      ['resources.customer-field-types-ignored', 'resources.customers.update-invalid'],
      ['resources.account-listed-twice', 'resources.ids.unique'],
      ['resources.reference-id-duplicated', 'resources.ids.unique'],
      ['resources.validation-error-shape', 'resources.errors.body'],
    ] as const) {
      // The same run as the fault's case above (the same server set-up and selection); run alone (`-t`), made here.
      const result =
        resourcesRuns.get(fault) ??
        (await withTarget({ faults: [fault] }, (local) => run(local, { suites: ['resources'] })));
      findings.set(fault, result.checks.find((c) => c.id === check)!.finding!.message);
    }
    expect(findings.get('resources.unauthorized-message-text')).toContain('401 "Invalid token"');
    expect(findings.get('resources.asset-timestamps-millis')).toMatch(
      /^2 timestamp\(s\) count milliseconds, while the server's other \d+ count seconds: GET \/assets\/6001: data\.createdAt = \d{13}; /,
    );
    expect(findings.get('resources.transaction-timestamps-microseconds')).toMatch(
      /: GET \/transactions\/\d+: data\.createdAt = \d{16} \(past the year 2286 counted in seconds and in milliseconds: no Unix time in either unit\)/,
    );
    expect(findings.get('resources.asset-field-missing')).toBe(
      '1 record(s) leave out fields of their table: GET /assets/6001: data leaves out marketPrice',
    );
    expect(findings.get('resources.customer-field-types-ignored')).toBe('200: the server accepted the request');
    expect(findings.get('resources.account-listed-twice')).toContain(
      'accountId 5001 is listed twice for customer 1042',
    );
    expect(findings.get('resources.reference-id-duplicated')).toContain(
      'customers 1042 and 1043 both have referenceId 88001042',
    );
    expect(findings.get('resources.validation-error-shape')).toMatch(/an account id that is not an integer \(400\)/);
  });
});

describe('presence where the table has no Required column (Instrument, Asset, Transaction) is a SHOULD of its own', () => {
  it.each([
    [
      'resources.instrument-field-missing',
      ['resources.instruments.list'],
      'REQ-INSTEP-06',
      /leaves out .*fractionalEnabled/,
    ],
    ['resources.asset-field-missing', ['resources.assets.get'], 'REQ-ASSETEP-05', /leaves out .*marketPrice/],
    [
      'resources.transaction-field-missing',
      ['resources.transactions.get', 'resources.transactions.list'],
      'REQ-TXNEP-0[78]',
      /leaves out .*requestType/,
    ],
  ] as const)(
    '%s warns in resources.fields.present alone; the type checks pass and record what they saw',
    async (fault, typeChecks, requirement, left) => {
      // The suites that read these records; the whole suite against every fault is the detection matrix's.
      const result = await withTarget({ faults: [fault] }, (local) =>
        run(local, { suites: ['resources', 'pagination'] }),
      );
      expect(failing(result)).toEqual(['resources.fields.present']);
      const present = result.checks.find((c) => c.id === 'resources.fields.present')!;
      expect(present.outcome).toBe('warn');
      expect(present.finding!.message).toMatch(left);
      for (const id of typeChecks) {
        const c = result.checks.find((r) => r.id === id)!;
        expect(c.outcome, id).toBe('pass');
        expect(c.alsoSeen, id).toContainEqual(
          expect.objectContaining({
            ownedBy: 'resources.fields.present',
            requirements: [expect.stringMatching(new RegExp(`^${requirement}$`))],
            message: expect.stringMatching(left),
          }),
        );
      }
    },
  );

  it('a field of the wrong type still fails the MUST check of its endpoint, naming the row it breaks', async () => {
    const result = await withTarget({ faults: ['resources.asset-numbers-as-strings'] }, (local) =>
      run(local, { suites: ['resources'] }),
    );
    expect(failing(result)).toEqual(['resources.assets.get']);
    expect(result.checks.find((c) => c.id === 'resources.assets.get')!.finding!.requirements).toEqual([
      'REQ-ASSET-07',
      'REQ-ASSET-08',
      'REQ-ASSET-09',
    ]);
  });
});

describe('a PUT /customers that creates the customer it was asked to update', () => {
  it('fails resources.customers.update-unknown loudly, as a clean-up a person must do', async () => {
    await withTarget({}, async (local) => {
      const store = local.server.store;
      const unknown = local.target.fixtures.unknownId!;
      // An upsert, planted in the store: the PUT finds "a" customer, and from then on the id exists.
      const created = new Map<number, Customer>();
      const { hasCustomer, getCustomer, updateCustomer } = {
        hasCustomer: store.hasCustomer.bind(store),
        getCustomer: store.getCustomer.bind(store),
        updateCustomer: store.updateCustomer.bind(store),
      };
      store.hasCustomer = (id) => id === unknown || hasCustomer(id);
      store.getCustomer = (id) => created.get(id) ?? getCustomer(id);
      store.updateCustomer = (id, patch, now) => {
        if (id !== unknown) return updateCustomer(id, patch, now);
        const customer: Customer = {
          customerId: id,
          firstName: '',
          lastName: '',
          status: 'ACTIVE',
          referenceId: 0,
          createdAt: now,
          updatedAt: now,
          ...patch,
        };
        created.set(id, customer);
        return customer;
      };
      const result = await run(local, { ids: ['resources.customers.update-unknown'] });
      const check = result.checks.find((c) => c.id === 'resources.customers.update-unknown')!;
      expect(check.outcome).toBe('fail');
      expect(check.finding!.cleanup).toBe(true);
      expect(check.finding!.message).toMatch(
        /^CLEANUP NEEDED: PUT \/customers for customer 999999, which did not exist, answered 200 and created it/,
      );
      expect(check.finding!.observed).toContain("have the server's operators delete customer 999999");
    });
  });
});

describe('a schema failure names the rows of the table that broke', () => {
  it('so the verdict names REQ-CUST-04 for a status outside the enum, not every row the check cites', async () => {
    // The same run as the fault's case in the table above (the same server set-up and selection).
    const result =
      resourcesRuns.get('resources.customer-status-unknown') ??
      (await withTarget({ faults: ['resources.customer-status-unknown'] }, (local) =>
        run(local, { suites: ['resources'] }),
      ));
    const get = result.checks.find((c) => c.id === 'resources.customers.get')!;
    expect(get.outcome).toBe('fail');
    expect(get.requirements.length).toBeGreaterThan(5);
    expect(get.finding?.requirements).toEqual(['REQ-CUST-04']);
    expect(result.verdict.status).toBe('NOT CONFORMANT');
    expect(result.verdict.failed).toEqual(['REQ-CUST-04']);
  });
});
