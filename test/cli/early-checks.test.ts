// `conformance run` checks --suite and --grep before it loads the engine and the suites (src/cli/early-checks.ts):
// the same suites as the pack, in its order, and the same one line as the engine's own check of the selection.
import { describe, expect, it } from 'vitest';
import { checkTarget, checkSelectionWords, RECEIVER_SUITES, SUITE_NAMES } from '../../src/cli/early-checks.js';
import { startLocalTarget } from '../../src/targets/local.js';
import { run } from '../../src/api.js';
import { selectChecks } from '../../src/engine/select.js';
import { pack } from '../../suites/index.js';
import { startEarlyCertificate } from '../../src/cli/early-certificate.js';

/** What `fn` threw: its message and code, or undefined. */
function thrown(fn: () => unknown): { message: string; code: unknown } | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { message: (e as Error).message, code: (e as { code?: unknown }).code };
  }
}

/** What the promise `fn` returns rejected with: its message and code, or undefined. */
async function rejected(fn: () => Promise<unknown>): Promise<{ message: string; code: unknown } | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return { message: (e as Error).message, code: (e as { code?: unknown }).code };
  }
}

describe("run's selection words, checked before the run loads", () => {
  it("name the pack's suites, in its order", () => {
    expect(SUITE_NAMES).toEqual(pack.suites.map((s) => s.name));
  });

  it("name the pack's suites that start the webhook receiver", () => {
    expect(RECEIVER_SUITES).toEqual(pack.suites.filter((s) => s.receiver).map((s) => s.name));
  });

  it.each([
    ['local', undefined, true],
    ['local', 'webhooks', true],
    ['local', 'auth, webhooks', true],
    ['local', 'auth,signing,pagination,resources,ussd', false],
    ['staging', undefined, false],
  ])('target %s, --suite %j: the receiver certificate made from the start: %s', async (target, suite, started) => {
    expect(await startEarlyCertificate(target, suite)).toBe(started);
  });

  it.each([
    [' resources , nope', undefined],
    ['auth', '('],
    [undefined, '[a-'],
  ])('--suite %j --grep %j: the engine’s error, word for word', (suite, grep) => {
    const early = thrown(() => checkSelectionWords(suite, grep));
    expect(early).toBeDefined();
    expect(early).toEqual(thrown(() => selectChecks(pack.suites, { suites: suite?.split(','), grep })));
    expect(early!.code).toBe('CONFORMANCE_ERR_USAGE');
  });

  it('let every selection the engine takes through, an empty one included', () => {
    for (const [suite, grep] of [
      [undefined, undefined],
      ['resources,ussd', '\\.get$'],
      ['auth,', 'zzzz-no-check'],
    ] as const)
      expect(thrown(() => checkSelectionWords(suite, grep))).toBeUndefined();
  });
});

describe("run's target, checked before the run loads", () => {
  it('refuses an unknown fault of the built-in target as the built-in target does', async () => {
    const early = await rejected(() => checkTarget({ target: 'local', fault: 'auth.token-type-lowercase,no.such' }));
    expect(early).toEqual(await rejected(() => startLocalTarget({ faults: ['no.such'] })));
    expect(early!.code).toBe('CONFORMANCE_ERR_USAGE');
    expect(await rejected(() => checkTarget({ target: 'local', fault: 'auth.token-type-lowercase' }))).toBeUndefined();
  });

  it("refuses the built-in target's flags with another target as the run does", async () => {
    const early = await rejected(() => checkTarget({ target: 'staging', variant: 'alt' }));
    expect(early).toEqual(await rejected(() => run({ target: 'staging', local: { variant: 'alt' } })));
    expect(early!.code).toBe('CONFORMANCE_ERR_USAGE');
  });
});
