// Suite `resources`, area `info`: what the spec leaves open, recorded (INFO): the timestamp unit, fields beyond the
// tables, Customer fields, isAvailable, GET /customers, the validation status, the body size, customer transitions.
import {
  describeResponse,
  describeUnit,
  exactValue,
  fieldsNotGiven,
  isObject,
  learnUnit,
  parseJson,
  schemaFields,
  unknownFields,
  type RequestSpec,
} from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { withCustomerRestored } from './helpers/customer-update.js';
import { BY_ID, INSTRUMENTS_LIST, LISTS } from './helpers/endpoints.js';
import { dataOf, readLeniently, walkLeniently } from './helpers/lenient-reads.js';
import { readOnce } from './helpers/fixture-reads.js';
import { type ResourcesRun } from './helpers/run-state.js';
import { readTimestampedRecords, timestampsOf, unitOf } from './helpers/timestamped-records.js';

/** How an asset's available relates to its position and locked, in words (the relation is not shown: REQ-ASSET-15). */
function assetRelation(asset: Record<string, unknown>): string {
  const { position, locked, available } = asset;
  const label = `asset ${exactValue(asset, 'assetId')}`;
  if (typeof position !== 'number' || typeof locked !== 'number' || typeof available !== 'number')
    return `${label}: not all three are numbers`;
  const numbers = `position ${position}, locked ${locked}, available ${available}`;
  // Decimals in binary: 8.5 − 1 is exact, 0.3 − 0.1 is not; a relative tolerance reads both as the same relation.
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  const relation = close(available, position - locked)
    ? 'available = position − locked'
    : close(available, position)
      ? 'available = position'
      : 'no simple relation';
  return `${label}: ${relation} (${numbers})`;
}

export const infoTimestampUnit = defineCheck({
  id: 'resources.info.timestamp-unit',
  title: 'which unit the server counts Unix timestamps in (the spec names none): seconds or milliseconds',
  level: 'INFO',
  requirements: ['REQ-CUST-09'],
  note: "The unit the checks of timestamps judge against (resources.timestamps.unix, auth.token.timestamps); the run's notes say it too.",
  explain: {
    sends:
      'GET of each fixture record (customer, account, asset, transaction) and the first page of GET /instruments?investmentType=INTERNATIONAL_STOCKS',
    passes:
      'always, once the answers could be read: the check records the unit most createdAt and updatedAt there are plausible Unix times in, seconds or milliseconds',
  },
  async run(ctx) {
    const records = await readTimestampedRecords(ctx);
    const timestamps = timestampsOf(records);
    const units = timestamps.flatMap((t) => unitOf(t) ?? []);
    if (units.length === 0)
      ctx.skip(
        `no createdAt or updatedAt read as a Unix time (${records.length} record(s), ${timestamps.length} timestamp(s)): no unit to learn`,
      );
    ctx.judged('a timestamp', units.length);
    const text = describeUnit(learnUnit(units));
    ctx.observe(text);
    (ctx.state as ResourcesRun).timestampUnit = text;
  },
});

export const infoExtraFields = defineCheck({
  id: 'resources.info.extra-fields',
  title:
    'fields the spec tables do not list, per resource (clients must ignore them), and the values the tables leave open: timeFrame, position/locked/available, requestType and status',
  level: 'INFO',
  requirements: ['REQ-INST-10', 'REQ-ASSET-15', 'REQ-TXN-10'],
  explain: {
    sends: 'GET of each fixture record and the first page of each list',
    passes:
      'always, once the answer could be read: the check records the fields each resource carries beyond its table (clients must ignore them), and the values the tables leave open: timeFrame, how available relates to position and locked, requestType and status',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    const seen = new Map<string, Set<string>>();
    const open = { timeFrame: new Set<string>(), requestType: new Set<string>(), status: new Set<string>() };
    const relations: string[] = [];
    let records = 0;
    const record = (table: string, obj: unknown, schema: string) => {
      if (isObject(obj)) records++;
      note(table, obj, schema);
    };
    const note = (table: string, obj: unknown, schema: string) => {
      const set = seen.get(table) ?? new Set<string>();
      for (const k of unknownFields(obj, schema)) set.add(k);
      seen.set(table, set);
    };
    for (const ep of BY_ID) {
      const id = f[ep.fixture];
      if (id === undefined) continue;
      const res = await readOnce(ctx, `${ep.prefix}/${id}`);
      const parsed = parseJson(res.text);
      if (res.status === 200 && parsed.ok && isObject(parsed.value)) {
        note('envelope', parsed.value, 'envelope');
        record(ep.table, parsed.value.data, ep.schema);
        if (ep.name === 'assets' && isObject(parsed.value.data)) relations.push(assetRelation(parsed.value.data));
      }
    }
    for (const ep of LISTS) {
      if (ep.name !== 'instruments' && f.customerId === undefined) continue;
      const res = await readOnce(ctx, ep.path, ep.query(ctx));
      const parsed = parseJson(res.text);
      if (res.status !== 200 || !parsed.ok || !isObject(parsed.value)) continue;
      note('list envelope', parsed.value, 'list-envelope');
      note('Paging meta', parsed.value.meta, 'paging-meta');
      for (const item of Array.isArray(parsed.value.data) ? parsed.value.data : []) {
        record(ep.table, item, ep.schema);
        if (ep.name === 'instruments' && isObject(item) && Array.isArray(item.valueChangeOverTime)) {
          const vc = new Set(seen.get('valueChangeOverTime item') ?? []);
          for (const change of item.valueChangeOverTime) {
            if (isObject(change))
              for (const k of Object.keys(change))
                if (!['timeFrame', 'percentChange', 'summary'].includes(k)) vc.add(k);
            if (isObject(change) && typeof change.timeFrame === 'string') open.timeFrame.add(change.timeFrame);
          }
          seen.set('valueChangeOverTime item', vc);
        }
        if (ep.name === 'transactions' && isObject(item)) {
          if (typeof item.requestType === 'string') open.requestType.add(item.requestType);
          if (typeof item.status === 'string') open.status.add(item.status);
        }
      }
    }
    if (records === 0) ctx.skip('no record was read (the checks of each endpoint judge its answers): no field to tell');
    ctx.judged('a record', records);
    const extra = [...seen]
      .filter(([, keys]) => keys.size > 0)
      .map(([table, keys]) => `${table}: ${[...keys].join(', ')}`);
    ctx.observe(
      extra.length ? `fields the spec does not list — ${extra.join('; ')}` : 'no fields beyond the spec tables',
    );
    const values = (set: Set<string>) => (set.size ? [...set].map((v) => JSON.stringify(v)).join(', ') : 'none seen');
    ctx.observe(`timeFrame values (allowed values not shown): ${values(open.timeFrame)}`);
    ctx.observe(
      `position, locked and available (their relation is not shown): ${relations.length ? relations.join('; ') : 'no asset read'}`,
    );
    ctx.observe(
      `transaction requestType values (not shown): ${values(open.requestType)}; status values (not shown): ${values(open.status)}`,
    );
  },
});

export const infoCustomerFields = defineCheck({
  id: 'resources.info.customer-fields',
  title: 'which Customer fields the server returns (their presence is not shown)',
  level: 'INFO',
  requirements: ['REQ-CUST-07'],
  note: 'Where a customer has no value for a field, a server may leave the field out or send it as null; both are recorded, neither fails.',
  explain: {
    sends: 'GET /customers/{id} of fixtures.customerId and of fixtures.otherCustomerId',
    passes:
      'always, once the answer could be read: the check records which Customer fields each answer leaves out or sends as null',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    const ids = [f.customerId, f.otherCustomerId].filter((id): id is number => id !== undefined);
    for (const id of ids) {
      const got = await readLeniently(ctx, `/customers/${id}`);
      if (!got) continue;
      const { absent, nulls } = fieldsNotGiven(got.data, 'customer');
      const shown = [
        ...(absent.length ? [`absent: ${absent.join(', ')}`] : []),
        ...(nulls.length ? [`null: ${nulls.join(', ')}`] : []),
      ];
      ctx.observe(
        `customer ${id}: ${shown.length ? shown.join('; ') : `all ${schemaFields('customer').length} Customer fields present`}`,
      );
      ctx.judged(`customer ${id}`);
    }
    if (ctx.subjectsJudged.count === 0)
      ctx.skip(`no customer could be read (${ids.join(', ')}): no field to tell (resources.customers.get judges it)`);
  },
});

export const infoInstrumentsAvailable = defineCheck({
  id: 'resources.info.instruments-available',
  title:
    'whether GET /instruments lists instruments with isAvailable false ("lists available instruments" reads both ways)',
  level: 'INFO',
  requirements: ['REQ-INSTEP-02'],
  explain: {
    sends: 'a walk of GET /instruments?investmentType=INTERNATIONAL_STOCKS, following meta.nextPage',
    passes:
      'always, once the answer could be read: the check records how many instruments listed have isAvailable false, and so which reading of "lists available instruments" the server took',
  },
  async run(ctx) {
    const walk = await walkLeniently(ctx, INSTRUMENTS_LIST.path, INSTRUMENTS_LIST.query(ctx), 'instrumentId');
    if (!walk) return ctx.skip('the instrument list could not be walked (resources.instruments.list judges it)');
    const objects = walk.items.filter(isObject);
    if (objects.length === 0) return ctx.skip('the instrument list is empty: no instrument to tell available or not');
    ctx.judged('an instrument listed', objects.length);
    const unavailable = objects.filter((i) => i.isAvailable === false);
    const reading =
      unavailable.length > 0
        ? 'every instrument is listed, isAvailable telling which can be bought'
        : 'only instruments with isAvailable true are listed (or none is unavailable)';
    ctx.observe(
      `${unavailable.length} of ${objects.length} instrument(s) listed have isAvailable false: ${reading}${walk.capped ? `; the walk was capped (${walk.stop.detail})` : ''}`,
    );
  },
});

export const infoCustomerList = defineCheck({
  id: 'resources.info.customer-list',
  title: 'whether GET /customers is served (its parameters and response are not shown)',
  level: 'INFO',
  requirements: ['REQ-CUSTEP-09'],
  explain: {
    sends: 'GET /customers, without parameters',
    passes: 'always, once the answer could be read: the check records whether it is served, and what it answers',
  },
  async run(ctx) {
    const res = await ctx.send({ method: 'GET', path: '/customers' });
    const data = dataOf(res);
    ctx.judged('the answer to GET /customers');
    ctx.observe(
      Array.isArray(data)
        ? `GET /customers: a list (${data.length} item(s) on the first page${res.text.includes('"meta"') ? ', with meta' : ''})`
        : `GET /customers: not served (${describeResponse(res)})`,
    );
  },
});

export const infoValidationStatus = defineCheck({
  id: 'resources.info.validation-status',
  title: 'which status a validation failure gets (not shown: any 4xx is a rejection)',
  level: 'INFO',
  requirements: ['REQ-ERR-05'],
  explain: {
    sends:
      'GET /accounts?customerId=not-a-number, GET /instruments?investmentType=NOT_AN_INVESTMENT_TYPE and GET /transactions/not-an-id',
    passes: 'always, once the answer could be read: the check records the status each validation failure gets',
  },
  async run(ctx) {
    const probes: Array<[string, RequestSpec]> = [
      [
        'GET /accounts?customerId=not-a-number',
        { method: 'GET', path: '/accounts', query: { customerId: 'not-a-number' } },
      ],
      [
        'GET /instruments?investmentType=NOT_AN_INVESTMENT_TYPE',
        { method: 'GET', path: '/instruments', query: { investmentType: 'NOT_AN_INVESTMENT_TYPE' } },
      ],
      ['GET /transactions/not-an-id', { method: 'GET', path: '/transactions/not-an-id' }],
    ];
    const seen: string[] = [];
    for (const [what, spec] of probes) {
      seen.push(`${what}: ${(await ctx.send(spec)).status}`);
      ctx.judged(what);
    }
    const statuses = [...new Set(seen.map((x) => x.slice(x.lastIndexOf(' ') + 1)))];
    ctx.observe(`validation failures answered ${statuses.join(', ')} (${seen.join('; ')})`);
  },
});

export const infoBodySize = defineCheck({
  id: 'resources.info.body-size',
  title: 'whether a request body of 64 KiB is taken (the maximum body size is not shown)',
  level: 'INFO',
  uses: ['mutable-customer'],
  requirements: ['REQ-LIM-05'],
  note: 'The body is {"customerId": <mutable customer>} padded with JSON whitespace: taken, it changes nothing.',
  explain: {
    sends:
      'PUT /customers whose body is {"customerId": <the mutable customer>} padded with JSON whitespace to 64 KiB (taken, it changes nothing)',
    passes:
      'always, once the answer could be read: the check records whether the body was taken or refused, and with which status',
  },
  async run(ctx) {
    const id = ctx.fixture('mutableCustomerId');
    const size = 64 * 1024;
    const head = `{"customerId":${id}`;
    const body = `${head}${' '.repeat(size - head.length - 1)}}`;
    const res = await ctx.send({ method: 'PUT', path: '/customers', body, contentType: 'application/json' });
    const kib = Math.round(Buffer.byteLength(body) / 1024);
    ctx.judged(`a PUT /customers body of ${kib} KiB`);
    ctx.observe(
      res.status >= 200 && res.status <= 299
        ? `a PUT /customers body of ${kib} KiB was accepted (${res.status})`
        : `a PUT /customers body of ${kib} KiB was refused: ${describeResponse(res)}`,
    );
  },
});

export const infoCustomerTransitions = defineCheck({
  id: 'resources.info.customer-transitions',
  title:
    'whether PUT /customers lets the status of an ACTIVE customer change to SUSPENDED (transitions are not shown); put back afterwards',
  level: 'INFO',
  uses: ['mutable-customer'],
  requirements: ['REQ-STATE-05'],
  note: 'Only ACTIVE → SUSPENDED and back, never CLOSED (which a server may treat as final); a restore that fails fails the check loudly, with the values to put back by hand.',
  explain: {
    sends: 'PUT /customers setting the mutable customer, where it is ACTIVE, to SUSPENDED; put back afterwards',
    passes: 'always, once the answer could be read: the check records whether the change was accepted or refused',
    fails:
      'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning); a restore that fails is reported as a clean-up problem, with the PUT /customers to send by hand',
  },
  async run(ctx) {
    await withCustomerRestored(ctx, async (id, original) => {
      if (original.status !== 'ACTIVE')
        return ctx.skip(`customer ${id} is ${exactValue(original, 'status')}, not ACTIVE: no status change was tried`);
      const res = await ctx.send({
        method: 'PUT',
        path: '/customers',
        json: { customerId: id, status: 'SUSPENDED' },
      });
      if (res.status >= 500)
        return ctx.skip(
          `the status change ACTIVE → SUSPENDED answered ${describeResponse(res)}: neither taken nor refused`,
        );
      ctx.judged('the status change ACTIVE → SUSPENDED');
      ctx.observe(
        res.status >= 200 && res.status <= 299
          ? `status change ACTIVE → SUSPENDED accepted (${res.status}); put back afterwards`
          : `status change ACTIVE → SUSPENDED refused: ${describeResponse(res)}`,
      );
    });
  },
});
