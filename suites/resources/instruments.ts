// Suite `resources`, area `instruments`: GET /instruments: the list, its investmentType validated, the announced types
// rejected.
import { expectRejection } from '../kit/index.js';
import { defineCheck } from '../../src/engine/index.js';
import { listCheck, queryValidatedCheck } from './helpers/endpoint-checks.js';
import { INSTRUMENTS_LIST } from './helpers/endpoints.js';

const ANNOUNCED_TYPES = ['COMMODITY', 'BONDS', 'LOCAL_STOCKS', 'FOREIGN_EXCHANGE', 'CRYPTO'] as const;

export const instrumentsList = listCheck('resources.instruments.list', INSTRUMENTS_LIST);

export const instrumentsTypeValidated = queryValidatedCheck(
  'resources.instruments.type-validated',
  INSTRUMENTS_LIST,
  'investmentType',
  ['NOT_AN_INVESTMENT_TYPE'],
);

export const instrumentsAnnouncedTypesRejected = defineCheck({
  id: 'resources.instruments.announced-types-rejected',
  title: 'GET /instruments with an announced but not yet available investment type is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-08'],
  explain: {
    sends: `GET /instruments with investmentType=${ANNOUNCED_TYPES.join(', ')}, one at a time`,
    passes:
      'each is rejected (any 4xx): the spec announces these types, but INTERNATIONAL_STOCKS is the only one accepted today',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    for (const type of ANNOUNCED_TYPES) {
      const res = await ctx.send({ method: 'GET', path: '/instruments', query: { investmentType: type } });
      expectRejection(ctx, res, `investmentType=${type} is rejected (any 4xx): it is not an accepted value today`);
      ctx.judged(`investmentType=${type}`);
    }
  },
});
