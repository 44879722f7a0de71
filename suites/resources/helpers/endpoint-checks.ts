// The checks every endpoint has, built from its description: GET-by-id, the list, the validated query. Each call
// site names its check id literally.
import {
  exactValue,
  expectItems,
  expectRejection,
  expectSchema,
  idKey,
  judgeObserved,
  listPageOf,
  noteErrorBody,
  observedAnswers,
  observedPath,
  resourceOf,
  type HttpResponse,
  type ListPage,
} from '../../kit/index.js';
import { defineCheck, type CheckContext, type CheckDeclaration } from '../../../src/engine/index.js';
import { byIdPath, type ByIdEndpoint, FIELDS_OWNER, type ListEndpoint } from './endpoints.js';
import { fail } from './fail.js';
import { ownedByOther } from './ownership.js';
import { readOnce } from './fixture-reads.js';

type Check = CheckDeclaration;

export function getByIdCheck(checkId: string, ep: ByIdEndpoint): Check {
  const singular = ep.table.split(' ')[0]!;
  return defineCheck({
    id: checkId,
    title: `GET ${ep.prefix}/{${ep.idField}} answers 200 with the envelope and a${/^[AEIOU]/.test(singular) ? 'n' : ''} ${singular} carrying that id`,
    level: 'MUST',
    requirements: ep.requirements,
    explain: {
      sends: `GET ${ep.prefix}/{${ep.idField}} with the id of fixtures.${ep.fixture}`,
      passes: `200 with the envelope {data, code, message}, data a${/^[AEIOU]/.test(singular) ? 'n' : ''} ${singular} as the ${ep.table} table describes it, carrying the ${ep.idField} asked for${ep.idOptional ? ' where it shows one (which Customer fields are present is not shown)' : ep.absentTo ? ` where it shows one; each field present has its type (that every field is present is ${FIELDS_OWNER}'s, at SHOULD: the table has no Required column)` : ''}`,
      fails: `another status, no envelope, a field ${ep.absentTo || ep.idOptional ? '' : 'missing or '}of the wrong type, or data of another ${ep.idField}: the check fails; the report names the field and shows the exchange`,
    },
    async run(ctx) {
      const id = String(ctx.fixture(ep.fixture));
      const path = `${ep.prefix}/${id}`;
      const res = await readOnce(ctx, path);
      judgeObserved(ctx, res, () => judgeResource(ctx, ep, resourceOf(ctx, res, path), id));
    },
    // Observed traffic: every 200 answer of GET {prefix}/{id}, judged against the id of its path.
    async observe(ctx) {
      const idOf = (res: HttpResponse) => byIdPath(ep.prefix, observedPath(ctx, res));
      const answers = observedAnswers(
        ctx,
        `200 answer of GET ${ep.prefix}/{${ep.idField}}`,
        (res) => res.status === 200 && res.exchange.request.method === 'GET' && idOf(res) !== undefined,
      );
      for (const res of answers) {
        const id = idOf(res)!;
        judgeObserved(ctx, res, () => judgeResource(ctx, ep, resourceOf(ctx, res, `${ep.prefix}/${id}`), id));
      }
    },
  });
}

/** A resource read by its id: its schema, and the id asked for (where the table lets it be absent, noted). */
function judgeResource(
  ctx: CheckContext,
  ep: ByIdEndpoint,
  { res, data }: { res: HttpResponse; data: Record<string, unknown> },
  id: string,
): void {
  const singular = ep.table.split(' ')[0]!;
  expectSchema(ctx, res, data, ep.schema, {
    path: 'data',
    table: ep.table,
    ...(ep.absentTo ? { absentTo: ep.absentTo } : {}),
  });
  ctx.judged(`${ep.prefix}/${id}`);
  if (data[ep.idField] === undefined && (ep.idOptional || ep.absentTo)) {
    ctx.observe(
      `data carries no ${ep.idField} (${ep.idOptional ? 'which customer fields are present is not shown' : `judged by ${FIELDS_OWNER}`})`,
    );
    return;
  }
  if (idKey(data, ep.idField) !== id) {
    fail(
      ctx,
      res,
      `data.${ep.idField} is ${exactValue(data, ep.idField)}, not ${id}`,
      `the ${singular.toLowerCase()} that was asked for (${ep.idField} ${id})`,
    );
  }
}

export function listCheck(checkId: string, ep: ListEndpoint): Check {
  return defineCheck({
    id: checkId,
    title: `GET ${ep.path} answers 200 with the list envelope and ${ep.table.split(' ')[0]} items`,
    level: 'MUST',
    requirements: ep.requirements,
    explain: {
      sends: `GET ${ep.path}${ep.name === 'instruments' ? '?investmentType=INTERNATIONAL_STOCKS' : '?customerId=<fixtures.customerId>'}, the first page`,
      passes: `200 with the list envelope, every item a${/^[AEIOU]/.test(ep.table) ? 'n' : ''} ${ep.table.split(' ')[0]} as the ${ep.table} table describes it${ep.absentTo ? ` (each field present has its type; that every field is present is ${FIELDS_OWNER}'s, at SHOULD: the table has no Required column)` : ''}${ep.name === 'instruments' ? '' : ', and of the customer asked for'}; an empty first page holds no record to judge, and the check skips`,
      fails:
        'any answer that does not (the check fails); the report names the field, status or item that differs and shows the exchange',
    },
    async run(ctx) {
      const query = ep.query(ctx);
      // meta is the pagination suite's (pagination.meta.present): one defect, one failing check.
      const res = await readOnce(ctx, ep.path, query);
      const page = judgeObserved(ctx, res, () => {
        const read = listPageOf(ctx, res, ep.path);
        judgeListPage(ctx, ep, read, ep.name === 'instruments' ? undefined : String(query.customerId));
        return read;
      });
      ctx.observe(`first page: ${page.items.length} item(s), totalCount ${String(page.meta?.totalCount ?? 'absent')}`);
      // A list answer judged is not its records judged: an empty first page holds nothing of the table.
      if (page.items.length === 0)
        ctx.skip(
          `GET ${ep.path}${ep.name === 'instruments' ? '?investmentType=INTERNATIONAL_STOCKS' : `?customerId=${String(query.customerId)}`} answered an empty list: no ${ep.table.split(' ')[0]} record to judge against its table`,
        );
      ctx.judged(`an item of GET ${ep.path}`, page.items.length);
    },
    // Observed traffic: every 200 page of GET {path}, judged against the customerId of its query where it has one.
    async observe(ctx) {
      const pages = observedAnswers(
        ctx,
        `200 answer of GET ${ep.path}`,
        (res) => res.status === 200 && res.exchange.request.method === 'GET' && observedPath(ctx, res) === ep.path,
      );
      let items = 0;
      for (const res of pages) {
        const customerId = new URL(res.exchange.request.url).searchParams.get('customerId');
        judgeObserved(ctx, res, () => {
          const page = listPageOf(ctx, res, ep.path);
          judgeListPage(ctx, ep, page, ep.name === 'instruments' || customerId === null ? undefined : customerId);
          items += page.items.length;
        });
      }
      if (items === 0)
        ctx.skip(`every observed page of GET ${ep.path} was empty: no record to judge against its table`);
      ctx.judged(`an item of GET ${ep.path}`, items);
    },
  });
}

/** A required query parameter that is missing or malformed is rejected (any 4xx; never a 2xx, never a 5xx). */
export function queryValidatedCheck(checkId: string, ep: ListEndpoint, param: string, bad: readonly string[]): Check {
  return defineCheck({
    id: checkId,
    title: `GET ${ep.path} without ${param}, or with ${param} ${bad.map((b) => JSON.stringify(b)).join(' or ')}, is rejected`,
    level: 'MUST',
    requirements: ep.queryRequirements,
    explain: {
      sends: `GET ${ep.path} without ${param}, then with ${param}=${bad.join(`, then with ${param}=`)}`,
      passes: `each is rejected (any 4xx): ${param} is required, and ${ep.name === 'instruments' ? 'INTERNATIONAL_STOCKS is its only accepted value' : 'an integer'}`,
      fails:
        'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
    },
    async run(ctx) {
      const missing = await ctx.send({ method: 'GET', path: ep.path });
      expectRejection(ctx, missing, `GET ${ep.path} without the required ${param} is rejected (any 4xx)`);
      noteErrorBody(ctx, missing);
      ctx.judged(`GET ${ep.path} without ${param}`);
      for (const value of bad) {
        const res = await ctx.send({ method: 'GET', path: ep.path, query: { [param]: value } });
        expectRejection(
          ctx,
          res,
          `GET ${ep.path}?${param}=${value} is rejected (any 4xx): ${param} must be ${ep.name === 'instruments' ? 'INTERNATIONAL_STOCKS' : 'an integer'}`,
        );
      }
    },
  });
}

/** A page of a list: each item against its table, and (with `customerId`) no item of another customer. */
function judgeListPage(ctx: CheckContext, ep: ListEndpoint, page: ListPage, customerId: string | undefined): void {
  expectItems(ctx, page.res, page.items, ep.schema, ep.table, ep.absentTo);
  if (customerId === undefined) return;
  const foreign = page.items.findIndex((item) => ownedByOther(item, customerId));
  if (foreign >= 0) {
    fail(
      ctx,
      page.res,
      `data[${foreign}].customerId is ${exactValue(page.items[foreign] as Record<string, unknown>, 'customerId')}, not ${customerId}`,
      `only items of customer ${customerId}`,
    );
  }
}
