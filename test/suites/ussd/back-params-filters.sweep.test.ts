// What the `ussd` suite judges of the last option, query values and status filters (found against an independent
// server, issue 14): the last option judged by where it stands, not by its number; invalid query values; the status
// filter of the requests menu; options that lead to another choice than the one shown. Each fault is caught by the
// checks that own what it breaks, and by no other.
import { describe, expect, it } from 'vitest';
import { check, failing } from '../../helpers/suite-runs.js';
import { ussdRuns } from '../../helpers/ussd-runs.js';

const { runUssd } = ussdRuns();

describe('the new USSD checks against the clean reference server', () => {
  it.each(['strict', 'alt'] as const)(
    '%s variant: every invalid value is refused, and each request is listed under one status filter',
    async (variant) => {
      const r = await runUssd({
        variant,
        grep: '^ussd\\.(params|requests|customer\\.required|options\\.follow-up|links\\.back)',
      });
      expect(r.checks.map((c) => [c.id, c.outcome])).toEqual([
        ['ussd.options.follow-up', 'pass'],
        ['ussd.links.back', 'pass'],
        ['ussd.requests.status-filters', 'pass'],
        ['ussd.requests.status-disjoint', 'pass'],
        ['ussd.requests.status-covered', 'pass'],
        ['ussd.customer.required', 'pass'],
        ['ussd.params.domain-refused', 'pass'],
        ['ussd.params.boolean-handled', 'pass'],
        ['ussd.params.boolean-refused', 'pass'],
      ]);
      expect(check(r, 'ussd.params.domain-refused').observations).toEqual([
        'stocks page=-1: 400; stocks page=x: 400; stocks page=1.5: 400; requests page=-1: 400; requests page=x: 400; requests page=1.5: 400; ' +
          'assets page=-1: 400; assets page=x: 400; assets page=1.5: 400; requests requestId=abc: 400; requests status=FOO: 400',
      ]);
      expect(check(r, 'ussd.params.boolean-handled').observations).toEqual([
        'stocks inputMode=maybe: 400; stocks searchMode=maybe: 400; assets detail=maybe: 400',
      ]);
      // Never a value that could place or cancel an order.
      const sent = r.checks.flatMap((c) => c.exchanges.map((e) => e.request.url));
      expect(sent.filter((u) => /[?&](amount|cancelMode)=/i.test(u))).toEqual([]);
      expect(check(r, 'ussd.requests.status-disjoint').observations).toEqual([
        'requestIds listed: status=PENDING: 730104, 730152; status=COMPLETED: 730146, 730117; status=CANCELED: 730125; status=ERROR: 730131',
      ]);
      expect(check(r, 'ussd.requests.status-covered').observations).toEqual([
        '6 requests listed unfiltered; by filter: PENDING 2, COMPLETED 2, CANCELED 1, ERROR 1',
      ]);
    },
  );

  it('reaches the requests through the status filters of a requests menu that lists none itself (ussd-requests-menu=filters)', async () => {
    const r = await runUssd({
      choices: { ussdRequestsMenu: 'filters' },
      grep: '^ussd\\.requests\\.status-covered$',
    });
    const covered = check(r, 'ussd.requests.status-covered');
    expect(covered.outcome).toBe('pass');
    expect(covered.observations).toEqual([
      'the requests menu lists no request itself but offers 4 status filters (status=PENDING, status=COMPLETED, status=CANCELED, status=ERROR): 6 requests listed under them; by filter: PENDING 2, COMPLETED 2, CANCELED 1, ERROR 1',
    ]);
  });

  it('does not judge disjoint filters for a customer with requests in one status: a skip that says why, not a pass', async () => {
    // Customer 1043 has one request, PENDING.
    const r = await runUssd({ customerId: 1043, grep: '^ussd\\.requests\\.status-(disjoint|covered)$' });
    const disjoint = check(r, 'ussd.requests.status-disjoint');
    expect(disjoint.outcome).toBe('skip');
    expect(disjoint.skipReason).toBe(
      'customer 1043 has requests under status=PENDING only: two filters cannot list the same request, so the rule cannot be judged (a fixture customer with requests in two statuses can)',
    );
    expect(check(r, 'ussd.requests.status-covered').outcome).toBe('pass');
    // Customer 2077 has none at all.
    const none = await runUssd({ customerId: 2077, grep: '^ussd\\.requests\\.status-(disjoint|covered)$' });
    expect(none.checks.map((c) => [c.id, c.outcome, c.skipReason, c.skipRemedy])).toEqual([
      [
        'ussd.requests.status-disjoint',
        'skip',
        'customer 2077 has requests under no status filter: two filters cannot list the same request, so the rule cannot be judged (a fixture customer with requests in two statuses can)',
        { kind: 'fixture', fixture: 'customerId' },
      ],
      [
        'ussd.requests.status-covered',
        'skip',
        'the requests menu of customer 2077 lists no request, under none of its status filters (status=PENDING, status=COMPLETED, status=CANCELED, status=ERROR) either: there is none to look for under the filters (fixtures.customerId naming a customer with order requests lets it be judged)',
        { kind: 'fixture', fixture: 'customerId' },
      ],
    ]);
    // The remedy the verdict prints names the setting, never "see the skip reason".
    const covered = none.verdict.notExercised
      .flatMap((r) => r.checks)
      .find((c) => c.id === 'ussd.requests.status-covered')!;
    expect(covered.remedy).toBe("set fixtures.customerId in the target's config");
  });
});

describe('the new USSD faults, each caught by the checks that own what it breaks', () => {
  it.each([
    ['ussd.back-listed-first', ['ussd.links.back']],
    // Next written last (ExUssd's BACK then MORE): a later page is no way back, not even from a start menu.
    ['ussd.more-listed-last', ['ussd.links.back']],
    ['ussd.options-shifted', ['ussd.options.follow-up']],
    ['ussd.request-type-lowercase', ['ussd.options.get']],
    ['ussd.customer-id-changed', ['ussd.links.alive', 'ussd.options.customer-id']],
    ['ussd.customer-id-not-integer-served', ['ussd.customer.required']],
    // A value outside a closed domain that is not refused, crashed on or served, fails the one MUST check.
    ['ussd.negative-page-crash', ['ussd.params.domain-refused']],
    ['ussd.negative-page-served', ['ussd.params.domain-refused']],
    ['ussd.status-unknown-crash', ['ussd.params.domain-refused']],
    ['ussd.requests-json-parsed', ['ussd.params.domain-refused']],
    ['ussd.status-unknown-ignored', ['ussd.params.domain-refused']],
    ['ussd.page-negative-clamped', ['ussd.params.domain-refused']],
    ['ussd.page-not-integer-ignored', ['ussd.params.domain-refused']],
    ['ussd.request-id-ignored', ['ussd.params.domain-refused']],
    // A boolean: not refused is SHOULD, a crash MUST.
    ['ussd.lenient-booleans', ['ussd.params.boolean-refused']],
    ['ussd.booleans-json-parsed', ['ussd.params.boolean-handled']],
    ['ussd.status-filter-ignored', ['ussd.requests.status-disjoint']],
    ['ussd.status-filter-misses-completed', ['ussd.requests.status-covered']],
    // Collateral of old faults, now gone: a relative requestUrl is a string (the schema's type), an empty message
    // shows no choice number (REQ-USSDV-04), a filter that answers 500 is a dead link to the requests menu (REQ-USSD-12).
    ['ussd.relative-url', ['ussd.options.request-url']],
    ['ussd.empty-message', ['ussd.options.in-message', 'ussd.view.message']],
  ])('%s is caught by %j', async (fault, ids) => {
    expect(failing(await runUssd({ faults: [fault] }))).toEqual(ids);
  });

  it('catches Back listed first in the alt variant too, where Back is 0 anyway', async () => {
    const r = await runUssd({ variant: 'alt', faults: ['ussd.back-listed-first'], grep: '^ussd\\.links\\.back$' });
    const back = check(r, 'ussd.links.back');
    expect(back.outcome).toBe('fail');
    expect(back.finding!.message).toMatch(
      /^a menu without a way back: stocks → 1 \(menu "AAPL - Apple Inc\."\): the last option, option 1 "Buy", leads to "\S+inputMode=true&symbol=AAPL" \(menu "Buy AAPL"\)/,
    );
  });

  it('names a last option that pages forward, in either variant', async () => {
    for (const variant of ['strict', 'alt'] as const) {
      const r = await runUssd({ variant, faults: ['ussd.more-listed-last'], grep: '^ussd\\.links\\.back$' });
      const back = check(r, 'ussd.links.back');
      expect(back.outcome, variant).toBe('fail');
      expect(back.finding!.message, variant).toMatch(
        /^a menu without a way back: stocks \(menu "Stocks \(1-3 of 5\)"\): the last option, option 98 "Next", leads to "\S+\/v1\/ussd\/stocks\?customerId=1042&page=(1|3)", a later page of this list \(page (1|3) after 0\): paging forward is no way back$/,
      );
      // The requests menu, a start menu as well, is named too.
      expect(back.finding!.observed, variant).toMatch(/^1 more:\n- requests \(menu "My requests/);
    }
  });

  it('names the value, the answer and the requirements of a value outside its domain that crashed a view', async () => {
    const r = await runUssd({ faults: ['ussd.negative-page-crash'], grep: '^ussd\\.params\\.domain-refused$' });
    const refused = check(r, 'ussd.params.domain-refused');
    expect(refused.finding!.message).toBe(
      'GET /ussd/assets with page=-1 answered 500: the server failed instead of refusing the value',
    );
    expect(refused.finding!.requirements).toEqual(['REQ-USSD-10', 'REQ-USSD-20', 'REQ-LIM-02']);
    expect(refused.exchanges.find((e) => e.seq === refused.finding!.exchangeSeq)!.request.url).toMatch(
      /\/v1\/ussd\/assets\?customerId=1042&page=-1$/,
    );
  });

  it('names each value served instead of refused, by what was served', async () => {
    const messages = async (fault: string) =>
      check(
        await runUssd({ variant: 'alt', faults: [fault], grep: '^ussd\\.params\\.domain-refused$' }),
        'ussd.params.domain-refused',
      ).finding!;
    const served = await messages('ussd.negative-page-served');
    expect(served.message).toMatch(
      /^GET \/ussd\/stocks with page=-1 answered 200 "Stocks": the value was not refused \(a value clamped or ignored is no refusal\); the menu even leads to a negative page: option 2 \(ussdOptions\[1\]\) → \S+\/v1\/ussd\/stocks\?customerId=1042&page=-4: page -4$/,
    );
    expect(served.requirements).toEqual(['REQ-USSD-10', 'REQ-USSD-07', 'REQ-LIM-02']);
    const ignored = await messages('ussd.status-unknown-ignored');
    expect(ignored.message).toBe(
      'GET /ussd/requests with status=FOO answered 200 "My requests (1-3 of 6)": the value was not refused (a value clamped or ignored is no refusal)',
    );
    expect(ignored.requirements).toEqual(['REQ-USSD-10', 'REQ-USSD-17']);
    // page=x and page=1.5 both served: the first named, the other listed.
    const parsed = await messages('ussd.page-not-integer-ignored');
    expect(parsed.message).toBe(
      'GET /ussd/assets with page=x answered 200 "My assets (1-2 of 2)": the value was not refused (a value clamped or ignored is no refusal)',
    );
    expect(parsed.observed).toMatch(/\n1 more:\n- GET \/ussd\/assets with page=1\.5 answered 200 /);
  });

  it('fails a boolean switch that crashes a view once, on the MUST check; the SHOULD check notes it', async () => {
    const r = await runUssd({ faults: ['ussd.booleans-json-parsed'], grep: '^ussd\\.params\\.boolean-' });
    const handled = check(r, 'ussd.params.boolean-handled');
    expect(handled.finding!.message).toBe(
      'GET /ussd/stocks with inputMode=maybe answered 500: the server failed instead of refusing the value',
    );
    expect(handled.finding!.requirements).toEqual(['REQ-USSD-06', 'REQ-USSD-08', 'REQ-USSD-21']);
    // Every value crashed: whether it is refused was not seen, so the SHOULD check judged nothing and says so.
    const refused = check(r, 'ussd.params.boolean-refused');
    expect(refused.outcome).toBe('skip');
    expect(refused.skipReason).toBe(
      'every value answered 5xx (GET /ussd/stocks with inputMode=maybe; GET /ussd/stocks with searchMode=maybe; GET /ussd/assets with detail=maybe): a crash is judged by ussd.params.boolean-handled, and whether the value is refused was not seen',
    );
    expect(refused.observations).toEqual([
      'GET /ussd/stocks with inputMode=maybe answered 500: judged by ussd.params.boolean-handled',
      'GET /ussd/stocks with searchMode=maybe answered 500: judged by ussd.params.boolean-handled',
      'GET /ussd/assets with detail=maybe answered 500: judged by ussd.params.boolean-handled',
    ]);
  });

  it('names a request listed under several filters, and one listed under none', async () => {
    const ignored = await runUssd({
      faults: ['ussd.status-filter-ignored'],
      grep: '^ussd\\.requests\\.status-disjoint$',
    });
    const disjoint = check(ignored, 'ussd.requests.status-disjoint');
    expect(disjoint.finding!.message).toBe(
      'request 730104 is listed under status=PENDING and status=COMPLETED and status=CANCELED and status=ERROR',
    );
    expect(disjoint.finding!.observed!.split('\n')[0]).toMatch(
      /^GET \S+\/v1\/ussd\/requests\?customerId=1042&status=COMPLETED offers requestId 730104 too$/,
    );
    const misses = await runUssd({
      faults: ['ussd.status-filter-misses-completed'],
      grep: '^ussd\\.requests\\.status-covered$',
    });
    const covered = check(misses, 'ussd.requests.status-covered');
    expect(covered.finding!.message).toBe(
      'request 730146 is listed by the requests menu but under none of the status filters PENDING, COMPLETED, CANCELED, ERROR',
    );
    expect(covered.finding!.observed).toMatch(
      /^under no filter \(read twice\): 730146, 730117; by filter: ERROR: 730131; CANCELED: 730125; COMPLETED: none; PENDING: 730104, 730152$/,
    );
  });

  it("does not judge the filters when one of them fails: that is ussd.requests.status-filters's finding", async () => {
    const r = await runUssd({ faults: ['ussd.status-filter-broken'], grep: '^ussd\\.requests\\.' });
    expect(r.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['ussd.requests.status-filters', 'fail'],
      ['ussd.requests.status-disjoint', 'pass'],
      ['ussd.requests.status-covered', 'skip'],
    ]);
    expect(check(r, 'ussd.requests.status-covered').skipReason).toBe(
      'requestIds under no filter read: 730125; status=CANCELED could not be read whole, and they may be listed there',
    );
  });
});
