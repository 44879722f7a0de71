// The pagination suite on every list endpoint (issue 14): clean in both variants (page a page index or an item
// offset, ASC or DESC by default) and with a last page whose nextPage points past the end (the choices lastNextPage and
// pastEnd), each new fault caught by the check meant for it, and no fault failing a check that does not cite what it
// breaks (one cause, one failure).
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { findFault } from '../../../src/reference/faults/catalog.js';
import type { VariantName } from '../../../src/reference/choices/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import { suites } from '../../../suites/index.js';
import { DELIVERY_DEADLINE_MS } from '../../helpers/waits.js';
import type { Middleware } from '../../../src/reference/context.js';

const LISTS = [
  'GET /transactions?customerId=1004',
  'GET /accounts?customerId=1042',
  'GET /instruments?investmentType=INTERNATIONAL_STOCKS',
];

type RunOptions = { variant?: VariantName; faults?: string[]; suite?: string };

/**
 * The run of one server set-up (variant, faults, suite), made once per file: several tests read the same run (a fault's
 * catch and collateral in one, its finding's wording in another), and assertions only read a result. A test run alone
 * (`-t`) makes the run itself.
 */
const runs = new Map<string, Promise<RunResult>>();
function run(options: RunOptions): Promise<RunResult> {
  const key = JSON.stringify([options.variant ?? 'strict', options.faults ?? [], options.suite ?? null]);
  let result = runs.get(key);
  if (!result) runs.set(key, (result = runOnce(options)));
  return result;
}

async function runOnce(options: RunOptions): Promise<RunResult> {
  const local = await startLocalTarget({
    ...(options.variant ? { variant: options.variant } : {}),
    faults: options.faults ?? [],
  });
  try {
    return await runChecks({
      pack,
      target: local.target,
      suites,
      selection: options.suite ? { suites: [options.suite] } : {},
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: DELIVERY_DEADLINE_MS } },
    });
  } finally {
    await local.stop();
  }
}

const pagination = (r: RunResult) => r.checks.filter((c) => c.suite === 'pagination');
const notPassed = (r: RunResult) =>
  pagination(r)
    .filter((c) => c.outcome !== 'pass')
    .map((c) => `${c.id}: ${c.outcome} ${c.finding?.message ?? c.skipReason ?? ''}`);
const failing = (r: RunResult) => r.checks.filter((c) => c.failsRun).map((c) => c.id);
const errored = (r: RunResult) =>
  r.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.finding?.message}`);
const observation = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!.observations.join(' | ');
const finding = (r: RunResult, id: string) => r.checks.find((c) => c.id === id)!.finding?.message ?? '';

/** Checks that fail the run without citing a requirement the fault breaks. */
function collateral(r: RunResult, fault: string): string[] {
  const breaks = findFault(fault)!.breaks;
  return r.checks.filter((c) => c.failsRun && !c.requirements.some((req) => breaks.includes(req.id))).map((c) => c.id);
}

describe.each(['strict', 'alt'] as const)(
  'the pagination suite against the clean reference server (%s variant)',
  (variant) => {
    it('passes every check on every list, skips none, and records what each list allowed', async () => {
      const result = await run({ variant, suite: 'pagination' });
      expect(notPassed(result)).toEqual([]);
      for (const id of [
        'pagination.page.zero',
        'pagination.limit.echo',
        'pagination.sort.invalid-rejected',
        'pagination.limit.invalid-rejected',
        'pagination.page.invalid-rejected',
        'pagination.walk.page-links',
        'pagination.sort.asc',
      ]) {
        for (const list of LISTS) expect(observation(result, id), id).toContain(list);
      }
      expect(observation(result, 'pagination.walk.page-links')).toMatch(
        /transactions\?customerId=1004: 5 pages linked.*accounts\?customerId=1042: 2 pages linked.*instruments\?investmentType=INTERNATIONAL_STOCKS: 3 pages linked/,
      );
      expect(observation(result, 'pagination.sort.desc')).toContain('6 items over 3 page(s), 4 distinct createdAt');
      expect(observation(result, 'pagination.limit.full-page')).toContain('without limit: 100 of 250');
      expect(observation(result, 'pagination.sort.invalid-rejected')).toContain(
        'sort=UP: 400, sort=createdAt: 400, sort=asc: 400',
      );
      expect(observation(result, 'pagination.limit.invalid-rejected')).toContain(
        'limit=0: 400, limit=-1: 400, limit=1001: 400, limit=5000: 400, limit=ten: 400, limit=2.5: 400',
      );
      expect(observation(result, 'pagination.page.invalid-rejected')).toContain(
        'page=-1: 400, page=x: 400, page=1.5: 400',
      );
      const order = variant === 'strict' ? 'meta.sort "ASC", items ascending' : 'meta.sort "DESC", items descending';
      expect(observation(result, 'pagination.info.default-sort').split(order)).toHaveLength(4);
    });
  },
);

describe('a server whose last page names a next page past the end (open points REQ-META-10, REQ-PAGE-09)', () => {
  it.each([
    ['strict', 'empty'],
    ['alt', '404'],
  ] as const)('passes every pagination check (%s variant, past the end: %s)', async (variant, pastEnd) => {
    const local = await startLocalTarget({ variant, choices: { lastNextPage: 'past', pastEnd } });
    try {
      const result = await runChecks({
        pack,
        target: local.target,
        suites,
        selection: { suites: ['pagination'] },
        failOn: 'should',
      });
      expect(notPassed(result)).toEqual([]);
      expect(observation(result, 'pagination.walk.complete')).toContain('250 items in 4 page(s)');
      expect(observation(result, 'pagination.info.last-page')).toContain(
        'nextPage on the last page: the page past the end',
      );
      expect(observation(result, 'pagination.info.past-end')).toMatch(
        pastEnd === '404' ? /page=\d+: 404/ : /page=\d+: 200, 0 items/,
      );
    } finally {
      await local.stop();
    }
  });
});

describe('catches each new fault with the check meant for it, and with no check of another requirement', () => {
  const cases: Array<[string, VariantName, string[]]> = [
    ['pagination.page-one-based', 'strict', ['pagination.page.zero']],
    ['pagination.page-one-based', 'alt', ['pagination.page.zero']],
    ['pagination.limit-echo-default', 'strict', ['pagination.limit.echo']],
    ['pagination.instruments-limit-ignored', 'strict', ['pagination.limit.respected', 'pagination.meta.current-count']],
    ['pagination.sort-invalid-crash', 'strict', ['pagination.sort.invalid-rejected']],
    ['pagination.sort-invalid-echoed', 'strict', ['pagination.sort.invalid-rejected']],
    [
      'pagination.sort-by-updated-at',
      'strict',
      ['pagination.sort.asc', 'pagination.sort.desc', 'pagination.sort.default-consistent'],
    ],
    ['pagination.sort-per-page', 'strict', ['pagination.sort.desc']],
    ['pagination.sort-per-page', 'alt', ['pagination.sort.desc', 'pagination.sort.default-consistent']],
    ['pagination.last-page-next-null', 'strict', ['pagination.meta.present']],
    // createdAt ties split across pages only on a walk of one item a page (the instruments have ties).
    ['pagination.tie-order-unstable', 'strict', ['pagination.walk.complete']],
    ['pagination.tie-order-unstable', 'alt', ['pagination.walk.complete']],
    // page-links in both readings of page: previousPage always 0 shows from the third page on.
    ['pagination.previous-page-stuck', 'alt', ['pagination.walk.page-links']],
  ];
  it.each(cases)('%s (%s variant)', async (fault, variant, ids) => {
    const result = await run({ variant, faults: [fault], suite: 'pagination' });
    const caught = failing(result);
    for (const id of ids) expect(caught, fault).toContain(id);
    expect(collateral(result, fault), `${fault}: checks failing without citing what it breaks`).toEqual([]);
    expect(errored(result)).toEqual([]);
  });

  it('names the endpoint that got it wrong', async () => {
    const limit = await run({ faults: ['pagination.instruments-limit-ignored'], suite: 'pagination' });
    expect(finding(limit, 'pagination.limit.respected')).toBe(
      'GET /instruments?investmentType=INTERNATIONAL_STOCKS&limit=1 returned 6 items',
    );
    const sort = await run({ faults: ['pagination.sort-by-updated-at'], suite: 'pagination' });
    expect(finding(sort, 'pagination.sort.asc')).toMatch(
      /^GET \/instruments\?investmentType=INTERNATIONAL_STOCKS: sort=ASC, but across the walk item \d+ has createdAt/,
    );
    const zero = await run({ faults: ['pagination.page-one-based'], suite: 'pagination' });
    expect(finding(zero, 'pagination.page.zero')).toBe('GET /transactions?customerId=1004&page=0 answered 400');
  });
});

describe('a value outside a closed domain is refused (MUST): clamped, taken as the default or ignored, it fails the check of its parameter alone', () => {
  // Faults of different parameters share a run (each fails its own check): every fault alone is the detection matrix's.
  const runs: Array<Array<[string, string, RegExp]>> = [
    [
      ['pagination.limit-clamped', 'pagination.limit.invalid-rejected', /&limit=1001 is refused/],
      ['pagination.negative-page-clamped', 'pagination.page.invalid-rejected', /&page=-1 is refused/],
      ['pagination.sort-invalid-ignored', 'pagination.sort.invalid-rejected', /&sort=UP is refused/],
    ],
    [
      ['pagination.limit-over-max-accepted', 'pagination.limit.invalid-rejected', /&limit=1001 is refused/],
      ['pagination.negative-page-accepted', 'pagination.page.invalid-rejected', /&page=-1 is refused/],
    ],
    [
      ['pagination.limit-nonpositive-default', 'pagination.limit.invalid-rejected', /&limit=0 is refused/],
      ['pagination.page-malformed-ignored', 'pagination.page.invalid-rejected', /&page=x is refused/],
    ],
    [['pagination.limit-zero-crash', 'pagination.limit.invalid-rejected', /&limit=0 is refused/]],
    [['pagination.limit-malformed-ignored', 'pagination.limit.invalid-rejected', /&limit=ten is refused/]],
  ];
  it.each(runs.map((faults) => [faults.map(([f]) => f).join(' + '), faults] as const))(
    '%s: each fails the check of its parameter, and nothing else of its suite',
    async (_name, faults) => {
      const result = await run({ faults: faults.map(([f]) => f), suite: 'pagination' });
      expect(failing(result).sort()).toEqual(faults.map(([, id]) => id).sort());
      for (const [fault, id, expected] of faults) {
        const c = result.checks.find((r) => r.id === id)!;
        expect(c.outcome, fault).toBe('fail');
        expect(c.finding!.expected, fault).toMatch(expected);
      }
      const breaks = faults.flatMap(([f]) => findFault(f)!.breaks);
      const unowned = result.checks.filter((c) => c.failsRun && !c.requirements.some((r) => breaks.includes(r.id)));
      expect(unowned.map((c) => c.id)).toEqual([]);
      expect(errored(result)).toEqual([]);
    },
  );

  // sort=asc is outside the enum as the spec writes it, but reading an enum case-insensitively is a common leniency.
  const lenient =
    (meta: 'ASC' | 'asc'): Middleware =>
    async (ctx, _state, _route, next) => {
      if (ctx.query.get('sort') !== 'asc') return next();
      ctx.query.set('sort', 'ASC');
      const reply = await next();
      const body = reply.body as { meta?: Record<string, unknown> } | undefined;
      return body?.meta ? { ...reply, body: { ...body, meta: { ...body.meta, sort: meta } } } : reply;
    };

  it.each([
    ['ASC', 'pass'],
    ['asc', 'fail'],
  ] as const)(
    'takes sort=asc served as ASC as a reading, and fails a list served for it whose meta.sort is %s only if it is no enum value',
    async (meta, outcome) => {
      const local = await startLocalTarget({ middleware: [lenient(meta)] });
      try {
        const result = await runChecks({
          pack,
          target: local.target,
          suites,
          selection: { suites: ['pagination'], grep: '^pagination\\.sort\\.invalid-rejected$' },
          failOn: 'should',
        });
        const c = result.checks.find((r) => r.id === 'pagination.sort.invalid-rejected')!;
        expect(c.outcome, c.finding?.message).toBe(outcome);
        if (outcome === 'pass') expect(c.observations.join(' ')).toContain('sort=asc: 200, served as ASC');
        else {
          expect(c.finding!.message).toMatch(/&sort=asc was served with meta\.sort "asc"$/);
          expect(c.finding!.requirements).toEqual(['REQ-META-08']);
        }
      } finally {
        await local.stop();
      }
    },
  );
});

describe('one cause, one failure: faults of paging and of other suites fail only the checks of what they break', () => {
  const cases: Array<[string, string[]]> = [
    // The checks that need a field of meta give up on it (skipped, the defect seen) while its owner fails for it.
    ['pagination.meta-missing', ['pagination.meta.present']],
    [
      'pagination.limit-exceeded',
      [
        'pagination.limit.respected',
        'pagination.limit.default',
        'pagination.limit.bounds',
        'pagination.meta.current-count',
      ],
    ],
    ['pagination.page-short', ['pagination.limit.full-page', 'pagination.walk.complete']],
    ['pagination.default-limit-50', ['pagination.limit.default', 'pagination.limit.full-page']],
    ['pagination.total-count-is-page-count', ['pagination.walk.complete', 'pagination.walk.total-stable']],
    ['resources.account-listed-twice', ['resources.ids.unique']],
  ];
  it.each(cases)('%s', async (fault, ids) => {
    const result = await run({ faults: [fault], suite: ids[0]!.split('.')[0]! });
    expect(failing(result), fault).toEqual(expect.arrayContaining(ids));
    if (fault === 'pagination.meta-missing') {
      expect(failing(result)).toEqual(ids);
      for (const id of ['pagination.meta.current-count', 'pagination.walk.complete', 'pagination.sort.asc']) {
        const c = result.checks.find((r) => r.id === id)!;
        expect(c.outcome, id).toBe('skip');
        expect(c.skipReason, id).toMatch(/owned by pagination\.meta\.present, which fails for it$/);
        expect(c.alsoSeen?.[0]).toMatchObject({ ownedBy: 'pagination.meta.present', requirements: ['REQ-ENV-05'] });
      }
    }
    expect(collateral(result, fault)).toEqual([]);
    expect(errored(result)).toEqual([]);
  });

  it('page-short no longer fails the MUST limit checks: a short page is allowed by "maximum items to return"', async () => {
    const result = await run({ faults: ['pagination.page-short'], suite: 'pagination' });
    const outcome = (id: string) => result.checks.find((c) => c.id === id)!.outcome;
    expect([outcome('pagination.limit.default'), outcome('pagination.limit.bounds')]).toEqual(['pass', 'pass']);
  });

  it('a list the server refuses to serve is named and left out, the others judged: the checks end skipped, never passed or failed', async () => {
    const result = await run({ faults: ['auth.token-refused-on-transactions'], suite: 'pagination' });
    const skipped = pagination(result).filter((c) => c.outcome === 'skip');
    expect(skipped.map((c) => c.id)).toContain('pagination.walk.complete');
    for (const c of skipped) expect(c.skipReason, c.id).toMatch(/^GET \/transactions\?customerId=1004 answered 403/);
    expect(observation(result, 'pagination.walk.complete')).toContain(
      'GET /instruments?investmentType=INTERNATIONAL_STOCKS: default limit: 6 items',
    );
    expect(
      pagination(result)
        .filter((c) => c.failsRun)
        .map((c) => c.id),
    ).toEqual(['pagination.meta.present']);
  });
});
