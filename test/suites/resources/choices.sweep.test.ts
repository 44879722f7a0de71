// Every reading of the open points of resources, pagination, idempotency and limits (choices/resources.ts): the whole
// suite passes against a server that takes it (0 failures, 0 warnings, no skip beyond a clean run's), and an
// observation records which reading the server took. All the non-default readings at once pass too.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { RESOURCES_CHOICES } from '../../../src/reference/choices/resources.js';
import type { ChoiceDef, Choices } from '../../../src/reference/choices/index.js';
import { runChecks } from '../../../src/engine/index.js';
import { startLocalTarget } from '../../../src/targets/local.js';
import type { Middleware } from '../../../src/reference/context.js';
import { suites } from '../../../suites/index.js';
import { notClean, observationsOf, runAll } from '../../helpers/suite-runs.js';

// Each reading alone, with its record, is a run of the choices matrix (docs/choices-matrix.md, npm run matrix:check);
// here the resources readings that change most at once, with the records they must leave.
describe('the whole suite against a server that takes the last reading of every resources open point', () => {
  it('passes and records them', async () => {
    const last = Object.fromEntries(
      Object.entries(RESOURCES_CHOICES as Record<string, ChoiceDef>).map(([key, def]) => [
        key,
        def.values.at(-1)!.value,
      ]),
    ) as Partial<Choices>;
    const result = await runAll({ choices: last });
    expect(notClean(result)).toEqual([]);
    const seen = observationsOf(result);
    expect(seen.some((o) => /customer 1043: null: firstName, lastName, referenceId/.test(o))).toBe(true);
    expect(seen.some((o) => /nextPage on the last page: back to the first page/.test(o))).toBe(true);
    expect(seen.some((o) => /validation failures answered 422/.test(o))).toBe(true);
  });
});

describe('a server that counts Unix timestamps in milliseconds (open point REQ-CUST-09)', () => {
  it('passes the whole suite, and the unit is recorded by the INFO check, the token check and the run notes', async () => {
    const result = await runAll({ choices: { timestampUnit: 'milliseconds' } });
    expect(notClean(result)).toEqual([]);
    const seen = observationsOf(result);
    expect(seen).toContainEqual(expect.stringMatching(/^Unix timestamps count milliseconds \((\d+) of \1 timestamp/));
    expect(result.run.notes).toContainEqual(expect.stringMatching(/^timestamps: Unix timestamps count milliseconds /));
    expect(result.checks.find((c) => c.id === 'auth.token.timestamps')!.observations).toEqual([
      "the token record's createdAt and updatedAt count milliseconds, as the server's instruments do",
    ]);
  });

  it('fails a record in seconds on a server whose other timestamps count milliseconds: one server, one unit', async () => {
    // Runs inside the choice shaping: a record it divides by 1000 leaves the server in seconds.
    const assetInSeconds: Middleware = async (_ctx, _state, route, next) => {
      const reply = await next();
      const body = reply.body as { data?: Record<string, number> } | undefined;
      if (route.path !== '/assets/:assetId' || reply.status !== 200 || !body?.data) return reply;
      const { createdAt, updatedAt } = body.data;
      return {
        ...reply,
        body: {
          ...body,
          data: { ...body.data, createdAt: Math.floor(createdAt! / 1000), updatedAt: Math.floor(updatedAt! / 1000) },
        },
      };
    };
    const local = await startLocalTarget({ choices: { timestampUnit: 'milliseconds' }, middleware: [assetInSeconds] });
    try {
      const result = await runChecks({
        pack,
        target: local.target,
        suites,
        selection: { grep: '^resources\\.(timestamps\\.unix|info\\.timestamp-unit)$' },
        failOn: 'should',
      });
      const unix = result.checks.find((c) => c.id === 'resources.timestamps.unix')!;
      expect(unix.outcome).toBe('fail');
      expect(unix.finding!.message).toMatch(
        /^2 timestamp\(s\) count seconds, while the server's other \d+ count milliseconds: GET \/assets\/6001: data\.createdAt = \d{10}; /,
      );
      expect(unix.finding!.requirements).toEqual(['REQ-ASSET-13', 'REQ-ASSET-14']);
      expect(result.checks.find((c) => c.id === 'resources.info.timestamp-unit')!.observations[0]).toMatch(
        /^Unix timestamps count milliseconds \(\d+ of \d+ timestamp/,
      );
    } finally {
      await local.stop();
    }
  });

  it('still fails a record a thousand times too large: microseconds are no Unix time in either unit', async () => {
    for (const [fault, id, unit] of [
      [
        'resources.asset-timestamps-millis',
        'resources.timestamps.unix',
        /^2 timestamp\(s\) are no Unix time: GET \/assets\/6001/,
      ],
      [
        'auth.token-timestamps-milliseconds',
        'auth.token.timestamps',
        /^createdAt is \d{16}, not a Unix time near the moment/,
      ],
    ] as const) {
      const local = await startLocalTarget({ choices: { timestampUnit: 'milliseconds' }, faults: [fault] });
      try {
        const result = await runChecks({
          pack,
          target: local.target,
          suites,
          selection: { grep: id.replace(/\./g, '\\.') },
          failOn: 'should',
        });
        const c = result.checks.find((r) => r.id === id)!;
        expect(c.outcome, fault).toBe('fail');
        expect(c.finding!.message, fault).toMatch(unit);
      } finally {
        await local.stop();
      }
    }
  });
});
