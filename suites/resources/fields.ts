// Suite `resources`, area `fields`: every field of the Instrument, Asset and Transaction tables present (SHOULD: the
// tables have no Required column).
import {
  cite,
  describeResponse,
  fieldsNotGiven,
  isObject,
  observedAnswers,
  observedLine,
  observedPath,
  type HttpResponse,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { BY_ID, endpointAt, LISTS } from './helpers/endpoints.js';
import { dataOf, readLeniently, readListLeniently } from './helpers/lenient-reads.js';

export const fieldsPresent = defineCheck({
  id: 'resources.fields.present',
  title: 'instruments, assets and transactions carry every field of their table',
  level: 'SHOULD',
  requirements: ['REQ-INSTEP-06', 'REQ-ASSETEP-05', 'REQ-TXNEP-07', 'REQ-TXNEP-08'],
  note: 'The Instrument, Asset and Transaction tables have no Required column (unlike Account: "All fields are required in responses"), so that every field is present is the only reasonable reading of "data = Asset", not stated word for word: SHOULD. The type of each field that is present is judged by resources.instruments.list, resources.assets.get, resources.transactions.list and resources.transactions.get (MUST).',
  explain: {
    sends:
      'GET /assets/{id} of fixtures.assetId, GET /transactions/{id} of fixtures.transactionId, and the first pages of GET /instruments?investmentType=INTERNATIONAL_STOCKS and GET /transactions?customerId=<fixtures.customerId>',
    passes:
      'every asset, transaction and instrument there carries every field of its table (null counts as present: its type is judged by the checks of the endpoint)',
    fails:
      'a field left out (the report names the record and the field): the check warns; an answer that is no resource or no list is left to the checks of its endpoint',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    /** Each answer read: a record by its id, or the items of a list's first page. */
    const reads: Read[] = [];
    for (const ep of BY_ID) {
      const id = f[ep.fixture];
      if (ep.absentTo === undefined || id === undefined) continue;
      const got = await readLeniently(ctx, `${ep.prefix}/${id}`);
      if (got)
        reads.push({
          what: `GET ${ep.prefix}/${id}`,
          res: got.res,
          records: [got.data],
          list: false,
          schema: ep.schema,
          requirement: ep.absentTo.requirements[0]!,
        });
    }
    for (const ep of LISTS) {
      if (ep.absentTo === undefined || (ep.name !== 'instruments' && f.customerId === undefined)) continue;
      const got = await readListLeniently(ctx, ep.path, ep.query(ctx));
      if (got)
        reads.push({
          what: `GET ${ep.path}`,
          res: got.res,
          records: got.items,
          list: true,
          schema: ep.schema,
          requirement: ep.absentTo.requirements[0]!,
        });
    }
    judgeFieldsPresent(ctx, reads);
  },
  // Observed traffic: every 200 answer of GET /assets/{id}, /transactions/{id}, /instruments and /transactions.
  async observe(ctx) {
    const reads = observedAnswers(
      ctx,
      '200 answer of an asset, transaction or instrument read',
      (res) => res.status === 200,
    ).flatMap((res): Read[] => {
      const path = res.exchange.request.method === 'GET' ? observedPath(ctx, res) : undefined;
      const data = dataOf(res);
      const ep = endpointAt(path);
      const list = ep !== undefined && 'path' in ep;
      if (ep?.absentTo === undefined || !(list ? Array.isArray(data) : isObject(data))) return [];
      const what = observedLine(ctx, res);
      return [
        {
          what,
          res,
          records: list ? (data as unknown[]) : [data],
          list,
          schema: ep.schema,
          requirement: ep.absentTo.requirements[0]!,
        },
      ];
    });
    if (reads.length === 0)
      ctx.skip('the traffic holds no 200 answer of an asset, transaction or instrument read with a record in data');
    judgeFieldsPresent(ctx, reads);
  },
});

/** An answer read: a record by its id, or the items of a list's page. */
interface Read {
  what: string;
  res: HttpResponse;
  records: unknown[];
  list: boolean;
  schema: string;
  requirement: string;
}

/** Every field of its table in each record of `reads`; a warning naming the records that leave some out. */
function judgeFieldsPresent(ctx: CheckContext, reads: readonly Read[]): void {
  if (reads.every((r) => !r.records.some(isObject)))
    ctx.skip(
      `no asset, transaction or instrument record was read (${reads.length} answer(s), none holding one): nothing to judge (the checks of each endpoint judge its answers)`,
    );
  const missing = reads.flatMap((r) =>
    r.records.flatMap((record, i) => {
      if (!isObject(record)) return [];
      const { absent } = fieldsNotGiven(record, r.schema);
      const where = `${r.what}: data${r.list ? `[${i}]` : ''}`;
      return absent.length > 0 ? [{ read: r, text: `${where} leaves out ${absent.join(', ')}` }] : [];
    }),
  );
  if (missing.length > 0) {
    const first = missing[0]!.read.res;
    ctx.fail(
      `${missing.length} record(s) leave out fields of their table: ${missing
        .slice(0, 5)
        .map((m) => m.text)
        .join('; ')}${missing.length > 5 ? ` (+${missing.length - 5} more)` : ''}`,
      {
        expected: 'every field of the Instrument, Asset and Transaction tables present in every record',
        observed: describeResponse(first),
        exchange: cite(ctx, first),
        requirements: [...new Set(missing.map((m) => m.read.requirement))],
      },
    );
  }
  for (const r of reads) ctx.judged(r.list ? `an item of ${r.what}` : r.what, r.records.filter(isObject).length);
  ctx.observe(
    `every field present in ${reads.map((r) => (r.list ? `the ${r.records.length} item(s) of ${r.what}` : r.what)).join(', ')}`,
  );
}
