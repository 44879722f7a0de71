// The `ussd` suite against the reference server under every reading of its open points (the suite passes and
// ussd.info.readings records each in its own words) and against each representative fault (caught by the checks that
// name it, its finding worded as it should be): a sweep (`npm run test:sweeps`). Clean, the caps and the shared crawl
// are reference-server.test.ts's.
import { describe, expect, it } from 'vitest';
import { CHOICE_DEFS, choiceName, type ChoiceDef, type Choices } from '../../../src/reference/choices/index.js';
import { check, failing } from '../../helpers/suite-runs.js';
import { ussdRuns } from '../../helpers/ussd-runs.js';

const { runUssd } = ussdRuns();

// Each reading of an open point of the USSD views (and of the core choices the menus render): the suite passes,
// and ussd.info.readings records the reading, in the words the choice's `recorded` expects.
const USSD_CHOICE_VALUES = (
  [
    'ussdNumbering',
    'ussdBack',
    'ussdAssetId',
    'ussdHomePortfolio',
    'ussdUnknownCustomer',
    'ussdTerminal',
    'ussdRequestsMenu',
  ] as const
).flatMap((key) =>
  (CHOICE_DEFS[key] as ChoiceDef).values.map(
    (v) => [`${choiceName(key)}=${v.value}`, key, v.value, v.recorded] as const,
  ),
);

describe('suite ussd under every reading of its open points', () => {
  it.each(USSD_CHOICE_VALUES)(
    '%s: nothing fails or warns, and the reading is recorded',
    async (_name, key, value, recorded) => {
      const r = await runUssd({ choices: { [key]: value } as Partial<Choices> });
      expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome])).toEqual([
        ['ussd.flow.order-cancel', 'skip'],
      ]);
      const readings = check(r, 'ussd.info.readings').observations;
      expect(
        readings.filter((o) => new RegExp(recorded, 'i').test(o)),
        readings.join('\n'),
      ).toHaveLength(1);
    },
  );

  it('records every reading in its own words', async () => {
    const readings = check(
      await runUssd({
        choices: {
          ussdNumbering: 'dash',
          ussdBack: 'zero',
          ussdAssetId: 'ignored',
          ussdHomePortfolio: 'not-served',
          ussdUnknownCustomer: 'view',
          ussdTerminal: 'detail-views',
        },
      }),
      'ussd.info.readings',
    ).observations;
    expect(readings).toEqual([
      expect.stringMatching(/^numbering of the choices \(not given\): "N - label" ×\d+$/),
      expect.stringMatching(/^number of the way back \(the last option; not given\): 0 in \d+ menus$/),
      // assetId ignored: a holding opens the stocks list, so the details page is the one END screen left.
      'views without options (END screens; no menus, so no way back is judged): 1, e.g. assets → 3 (menu "My assets - details (1-2 of 2)")',
      'USSD page values (their unit is not given; the crawl follows them, never computes one): stocks → page=1, requests → page=1',
      expect.stringMatching(
        /^assetId: ignored \(\d+ views of \/ussd\/stocks with assetId show the stocks menu without it\)$/,
      ),
      '/ussd/home and /ussd/portfolio: not served (404, 404); menus link to them only',
      'requests menu (what it shows unfiltered is not given): lists the requests, 3 on its first page, and offers 4 status filters (PENDING, COMPLETED, CANCELED, ERROR)',
      'unknown customer: a view saying so (200, 200, 200); ussd.customer.unknown judges that it serves no menu of a customer',
    ]);
  });

  it('records the readings of real USSD libraries in their own words: "1.Buy", "0 Back" then "99 Home", an END screen', async () => {
    const r = await runUssd({
      choices: { ussdNumbering: 'compact', ussdBack: 'zero-and-home', ussdUnknownCustomer: 'end-screen' },
    });
    expect(r.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id)).toEqual(['ussd.flow.order-cancel']);
    const readings = check(r, 'ussd.info.readings').observations;
    expect(readings[0]).toMatch(/^numbering of the choices \(not given\): "N\.label" ×\d+$/);
    // The start menus' Back leads home: they end with "0.Back" alone; the others with "0.Back" then "99.Home".
    expect(readings[1]).toMatch(
      /^number of the way back \(the last option; not given\): 0 in \d+ menus, 99 after an option 0 in \d+ menus$/,
    );
    expect(readings.at(-1)).toBe(
      'unknown customer: an END screen saying so, no options (200, 200, 200); ussd.customer.unknown judges that it shows text',
    );
  });

  it('records unserved home and portfolio links on ussd.links.alive, not as dead links', async () => {
    const alive = check(await runUssd({ choices: { ussdHomePortfolio: 'not-served' } }), 'ussd.links.alive');
    expect(alive.outcome).toBe('pass');
    expect(alive.observations.join('\n')).toMatch(
      /\/ussd\/home \(GET \S+\/v1\/ussd\/home\?customerId=1042\) answered 404: not served, only linked \(its contract is not shown\); \d+ options lead there/,
    );
  });

  it('still fails the guest menus of an unknown customer when the server answers unknown customers with a view', async () => {
    const r = await runUssd({ choices: { ussdUnknownCustomer: 'view' }, faults: ['ussd.unknown-customer-served'] });
    expect(failing(r)).toEqual(['ussd.customer.unknown']);
    expect(check(r, 'ussd.customer.unknown').finding!.message).toMatch(
      /^GET \/ussd\/stocks\?customerId=\d+ \(a customer that does not exist\) was served as if the customer existed: option 1 \(ussdOptions\[0\]\) leads to "\S+\/ussd\/stocks\?customerId=\d+&symbol=AAPL": a menu of a customer$/,
    );
  });
});

describe('suite ussd against faults', () => {
  it.each([
    ['ussd.dead-link', ['ussd.links.alive', 'ussd.options.request-url']],
    ['ussd.no-back-option', ['ussd.links.back']],
    // Without customerId the Next link is dead; ussd.options.customer-id judges only a customerId that is there.
    ['ussd.customer-dropped', ['ussd.links.alive']],
    ['ussd.paging-loop', ['ussd.links.paging']],
    ['ussd.status-filter-broken', ['ussd.links.alive', 'ussd.requests.status-filters']],
    ['ussd.option-not-in-message', ['ussd.options.in-message']],
    ['ussd.request-type-not-method', ['ussd.options.get', 'ussd.options.request-type']],
    ['ussd.unknown-customer-served', ['ussd.customer.unknown']],
    ['ussd.options-self-loop', ['ussd.links.back', 'ussd.links.paging']],
    ['ussd.back-cycle', ['ussd.links.back']],
  ])('%s is caught by %j', async (fault, ids) => {
    expect(failing(await runUssd({ faults: [fault] }))).toEqual(ids);
  });

  it('names a menu whose every option leads to itself, and the menus whose ways back go round, never reaching home', async () => {
    const self = check(await runUssd({ faults: ['ussd.options-self-loop'] }), 'ussd.links.back');
    expect(self.finding!.message).toMatch(
      /^a menu without a way back: stocks \(menu "Stocks \(1-3 of 5\)"\): the last option, option 6 "Back", leads to "\S+\/v1\/ussd\/stocks\?customerId=1042", this same view: a menu is not its own parent, and the user is left where they are$/,
    );
    // Every start menu but home, the top menu, which links.back does not judge (and says so).
    expect(self.finding!.observed!.split('\n').map((l) => /^- (\w+) /.exec(l)?.[1] ?? l)).toEqual([
      '3 more:',
      'assets',
      'requests',
      'portfolio',
    ]);
    expect(self.observations[0]).toMatch(
      /^home \(menu "Welcome, Amara"\) is the top menu: its last option, option 5 "Main menu" → /,
    );

    const cycle = check(await runUssd({ faults: ['ussd.back-cycle'] }), 'ussd.links.back');
    expect(cycle.finding!.message).toBe(
      'a menu without a way back: assets (menu "My assets (1-2 of 2)"): the last option leads back to "My assets - details (1-2 of 2)", and the ways back go round 2 menus ("My assets (1-2 of 2)" → "My assets - details (1-2 of 2)" → "My assets (1-2 of 2)") and never reach home, portfolio or a menu above them',
    );
    // Both menus of the cycle are shown, nothing else of the crawl.
    expect(cycle.exchanges.map((e) => new URL(e.request.url).search).sort()).toEqual([
      '?customerId=1042',
      '?customerId=1042&detail=true',
    ]);
  });

  it('reports a menu graph without end as a warning with its frontier', async () => {
    const r = await runUssd({ faults: ['ussd.endless-list'], grep: '^ussd\\.crawl\\.' });
    const bounded = check(r, 'ussd.crawl.bounded');
    expect(bounded.outcome).toBe('warn');
    expect(bounded.finding!.message).toMatch(
      /^the crawl stopped before the menus ended \(depth-cap\): \d+ views not visited; the graph may be without end$/,
    );
    expect(bounded.finding!.observed).toMatch(
      /^frontier \(first 10 of \d+\):\n- stocks → 4 → 3( → 1){11}: GET \S+\/ussd\/stocks\?customerId=1042&page=13 \(the depth cap was reached\)\n/,
    );
  });
});
