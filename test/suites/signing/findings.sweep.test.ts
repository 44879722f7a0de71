// The gaps of issue 14 in the signing suite: the new fault is caught by its new check (that no other check fails is
// the detection matrix's to prove, for every fault: test/reference/detection-matrix.test.ts); a signature without
// keyid is refused at SHOULD; and a webhook a faulty server created on a tampered POST is reported as a clean-up.
import { describe, expect, it } from 'vitest';
import signing from '../../../suites/signing/index.js';
import { check, expectCaughtAlone, failing, runAll, runGrep } from '../../helpers/suite-runs.js';

describe('new faults of tokens and signing', () => {
  it.each([['signing.digest-coverage-not-required', 'signing.reject.digest-not-covered']])(
    '%s is caught by %s, alone in its suite',
    (fault, id) => expectCaughtAlone(signing, fault, id),
  );

  it('refuses a signature without keyid at SHOULD, and records without judging whether created or expires may be left out', async () => {
    const result = await runGrep(signing, ['signing.keyid-ignored'], 'missing-keyid|signature-parameters');
    const found = check(result, 'signing.reject.missing-keyid');
    expect(found.outcome).toBe('warn');
    expect(found.finding?.message).toBe('200: the server accepted the request');
    expect(found.requirements.map((r) => r.id)).toEqual(['REQ-AUTH-17']);
    const info = check(result, 'signing.info.signature-parameters');
    expect(info.outcome).toBe('pass');
    expect(info.observations).toEqual([
      'without created (keyid and expires only): refused (401); without expires (keyid and created only): refused (401)',
    ]);
  });
});

describe('checks that met another defect on their way', () => {
  it('a webhook a faulty server created on a tampered POST is subscribed to its own creation only, and the webhook checks pass', async () => {
    const result = await runAll({ faults: ['signing.body-applied-before-verification'] });
    expect(failing(result)).toEqual(['signing.reject.body-tampered', 'signing.reject.post-body-tampered']);
    expect(check(result, 'signing.reject.post-body-tampered').finding?.message).toMatch(
      /^CLEAN-UP FAILED: the webhook configuration was changed and could not be restored \(there was no webhook before, now url "https:\/\/conformance\.invalid\/tampered-[0-9a-f]{8}", subscriptions \["WEBHOOK\.CREATED"\], and the interface has no DELETE\)/,
    );
  });
});
