// The readings of request signing the spec leaves open (choices/signing.ts: REQ-AUTH-13, REQ-HDR-09): the whole suite
// passes against a server that takes them (0 failures, 0 warnings, no skip beyond a clean run's), the run learns the
// profile it needs, and an observation records each reading. Each value alone is a run of the choices matrix
// (docs/choices-matrix.md, npm run matrix:check); here the ones that change most at once.
import { describe, expect, it } from 'vitest';
import { SIGNING_CHOICES } from '../../../src/reference/choices/signing.js';
import type { ChoiceDef, Choices } from '../../../src/reference/choices/index.js';
import auth from '../../../suites/auth/index.js';
import signing from '../../../suites/signing/index.js';
import type { RunResult } from '../../../src/engine/index.js';
import { notClean, observationsOf, runAll } from '../../helpers/suite-runs.js';

/** The reading of every signing choice at `position` (0: the defaults, 1: the other one). */
function readings(position: number): Partial<Choices> {
  return Object.fromEntries(
    Object.entries(SIGNING_CHOICES as Record<string, ChoiceDef>).map(([key, def]) => [
      key,
      def.values[position]!.value,
    ]),
  ) as Partial<Choices>;
}

/** Every reading taken is on record: some observation or note matches the value's `recorded`. */
function expectRecorded(result: RunResult, choices: Partial<Choices>): void {
  const seen = observationsOf(result);
  for (const [key, value] of Object.entries(choices)) {
    const def = (SIGNING_CHOICES as Record<string, ChoiceDef>)[key]!;
    const pattern = new RegExp(def.values.find((v) => v.value === value)!.recorded, 'i');
    expect(
      seen.some((o) => pattern.test(o)),
      `${key}=${String(value)}: nothing matches ${pattern}`,
    ).toBe(true);
  }
}

describe('the whole suite against a server that takes the other reading of every signing open point', () => {
  it('passes: it learns a profile over @path and @query, and records every reading', async () => {
    const other = readings(1);
    const result = await runAll({ choices: other });
    expect(notClean(result)).toEqual([]);
    expectRecorded(result, other);
    expect(result.run.notes).toContainEqual(
      expect.stringMatching(/^signing: the server took sig1 over @method @path @query with a 60 s window /),
    );
    expect(result.run.replay?.signing).toEqual({
      windowSeconds: 60,
      components: ['@method', '@path', '@query'],
      label: 'sig1',
    });
  });
});

describe('the auth and signing suites', () => {
  it('against the defaults: one token request opens the run, and every default reading is recorded', async () => {
    const defaults = readings(0);
    const result = await runAll({ choices: defaults }, [auth, signing]);
    expect(notClean(result)).toEqual([]);
    expectRecorded(result, defaults);
    const tokenRequests = result.sessionExchanges.filter((e) => e.request.url.endsWith('/oauth/token'));
    expect(tokenRequests.map((e) => e.response?.status)).toEqual([200]);
  });

  it('against 60 s without skew behind a TLS-terminating proxy: the expired and future signatures are still refused for their times', async () => {
    const pair: Partial<Choices> = { signatureWindow: '60-no-skew', signatureTarget: 'path-query' };
    const result = await runAll({ choices: pair }, [auth, signing]);
    expect(notClean(result)).toEqual([]);
    expectRecorded(result, pair);
    for (const id of ['signing.reject.expired', 'signing.reject.future-created']) {
      const exchange = result.checks.find((c) => c.id === id)!.exchanges.at(-1)!;
      const input = exchange.request.headers.find(([n]) => n.toLowerCase() === 'signature-input')![1];
      // Signed in the learnt profile but for its times: over @path (the read has no query), a 60 s window.
      expect(input, id).toMatch(/^sig1=\("@method" "@path" "authorization" "x-client-id"\);/);
      const created = Number(/created=(\d+)/.exec(input)![1]);
      expect(Number(/expires=(\d+)/.exec(input)![1]) - created, id).toBe(60);
      expect(exchange.response?.status, id).toBe(401);
    }
  });
});
