import { describe, expect, it } from 'vitest';
import type { UnexercisedRequirement } from '../../src/engine/index.js';
import { unexercisedCauseLines } from '../../src/report/unexercised-causes.js';

const LONG = {
  id: 'auth.expiry.after-60-minutes',
  outcome: 'skip' as const,
  reason: 'runs only with --long: it waits 61 minutes for a token to expire',
  remedy: 'run with --long',
};

function notSelected(suite: string) {
  return {
    id: `${suite}.some.check`,
    outcome: 'not-selected' as const,
    reason: `not selected: --suite left out its suite, ${suite}`,
    remedy: 'run without --suite (or with its suite named)',
  };
}

function requirement(id: string, checks: UnexercisedRequirement['checks']): UnexercisedRequirement {
  return { id, section: 'S', quote: 'q', checks, remedy: checks.map((c) => c.remedy).join('; ') };
}

describe('unexercisedCauseLines', () => {
  it('says a skipped check once, with every requirement it kept from the verdict', () => {
    const ids = ['REQ-TOKEN-03', 'REQ-LIFE-04', 'REQ-TOKEP-04', 'REQ-AUTH-03', 'REQ-LIM-03'];
    expect(unexercisedCauseLines(ids.map((id) => requirement(id, [LONG])))).toEqual([
      '5 MUST requirements: auth.expiry.after-60-minutes skipped: runs only with --long: it waits 61 minutes for a token to expire → run with --long (REQ-TOKEN-03, REQ-LIFE-04, REQ-TOKEP-04, REQ-AUTH-03, REQ-LIM-03)',
    ]);
  });

  it('groups the requirements a --suite run left out by suite, whichever of its checks cite them, ids counted past six', () => {
    const auth = Array.from({ length: 8 }, (_, i) =>
      requirement(`REQ-A-${i + 1}`, [notSelected('auth'), { ...notSelected('auth'), id: 'auth.other' }]),
    );
    const both = requirement('REQ-SVC-09', [notSelected('auth'), notSelected('signing')]);
    expect(unexercisedCauseLines([...auth, both])).toEqual([
      '9 MUST requirements: not selected: --suite left out its suite, auth → run without --suite (or with its suite named) (REQ-A-1, REQ-A-2, REQ-A-3, REQ-A-4, REQ-A-5, REQ-A-6 and 3 more)',
      '1 MUST requirement: not selected: --suite left out its suite, signing → run without --suite (or with its suite named) (REQ-SVC-09)',
    ]);
  });

  it('says once the reason several checks share, naming the checks', () => {
    const scenario = (id: string) => ({
      id,
      outcome: 'skip' as const,
      reason: 'scenario webhooks was not run (--scenario)',
      remedy: 'see the skip reason',
    });
    const ids = [
      'client.webhooks.registered',
      'client.webhooks.accepts-valid',
      'client.webhooks.discards-forged',
      'x.y',
    ];
    expect(
      unexercisedCauseLines([
        requirement('REQ-WHKEP-02', [scenario(ids[0]!)]),
        requirement('REQ-AUTH-12', [scenario(ids[1]!), scenario(ids[2]!), scenario(ids[3]!)]),
      ]),
    ).toEqual([
      '2 MUST requirements: client.webhooks.registered, client.webhooks.accepts-valid, client.webhooks.discards-forged and 1 more skipped: scenario webhooks was not run (--scenario) → see the skip reason (REQ-WHKEP-02, REQ-AUTH-12)',
    ]);
  });

  it('keeps an errored check apart from a skipped one, and gives nothing for nothing', () => {
    const errored = { id: 'x.y', outcome: 'error' as const, reason: 'timed out', remedy: 'raise --budget' };
    expect(unexercisedCauseLines([requirement('REQ-1', [LONG]), requirement('REQ-2', [errored])])).toEqual([
      '1 MUST requirement: auth.expiry.after-60-minutes skipped: runs only with --long: it waits 61 minutes for a token to expire → run with --long (REQ-1)',
      '1 MUST requirement: x.y errored: timed out → raise --budget (REQ-2)',
    ]);
    expect(unexercisedCauseLines([])).toEqual([]);
  });
});
