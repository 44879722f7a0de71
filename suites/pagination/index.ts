// Suite `pagination`: paging meta, limits, page walks and sorting on the list endpoints (spec "Paging meta (list
// responses)", "Pagination and sorting (list endpoints)", "Limits"). `page` may be a page index or an item offset
// (GUIDE), so every walk follows meta.nextPage and no check computes a page number.
//
// The rules hold for every list endpoint, and an implementation may get one of them wrong, so each check judges each
// list: the accounts of fixtures.customerId, the INTERNATIONAL_STOCKS instruments, and the transactions of
// fixtures.paginationCustomerId (the long one). A rule that needs several pages or several distinct createdAt values
// is judged where the list has them, and the check records where it could not judge. A list that does not answer its
// plain request with a list (a defect the resources checks judge) is not judged here: the check judges the others and
// ends skipped, naming it, since it could not judge the rule everywhere.
import { defineSuite } from '../../src/engine/index.js';
import { metaChecks } from './meta.js';
import { limitChecks } from './limit.js';
import { pageChecks } from './page.js';
import { walkChecks } from './walk.js';
import { sortChecks } from './sort.js';
import { infoChecks } from './info.js';
import { lifecycle } from './helpers/walks.js';

export default defineSuite({
  name: 'pagination',
  title: 'Pagination: paging meta, limits, page walks, sorting',
  ...lifecycle,
  checks: [...metaChecks, ...limitChecks, ...pageChecks, ...walkChecks, ...sortChecks, ...infoChecks],
});
