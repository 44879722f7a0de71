// The token record by the level rule (issue 25), against a small server whose token answer each test writes: a field
// the record leaves out is the SHOULD presence check's (auth.token.fields) alone, what a row states is MUST where the
// field is present, and the checks of a field that is not there skip, naming the check that judges its presence.
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { runChecks, type RunResult } from '../../../src/engine/index.js';
import { generateEd25519 } from '../../../src/http/keys.js';
import auth from '../../../suites/auth/index.js';
import { startEchoServer } from '../../helpers/echo-server.js';
import { check, echoTarget, failing } from '../../helpers/suite-runs.js';

describe('the token record by the level rule (issue 25): a field left out is the SHOULD presence check', () => {
  const key = generateEd25519();
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  const TOKEN_CHECKS =
    '^auth\\.(token\\.(issued|fields|unique|type-bearer|scope|trusted-ips|organization)|expiry\\.expires-in)$';

  /** The token checks against a server whose token answer is `answer(token, n)`; every token works, revoke answers 200. */
  async function runAgainst(answer: (token: string, n: number) => unknown): Promise<RunResult> {
    let issued = 0;
    const server = await startEchoServer((req, res) => {
      if (req.url === '/v1/oauth/token') {
        issued += 1;
        res.end(JSON.stringify(answer(`token-${issued}-0123456789`, issued)));
        return;
      }
      res.end(JSON.stringify({ data: [], code: '200', message: 'Success' }));
    });
    stops.push(() => server.close());
    const target = echoTarget(server.origin, key);
    return runChecks({ pack, target, suites: [auth], selection: { grep: TOKEN_CHECKS }, failOn: 'should' });
  }

  const full = (token: string, n: number) => ({
    message: 'Success',
    tokenId: `id-${n}`,
    token,
    expiresIn: 3600,
    maxTTL: 3600,
    tokenType: 'Bearer',
    scope: ['read', 'write'],
    trustedIps: [],
    organization: { id: 1, name: 'Org', clientId: 'c' },
    createdAt: Math.floor(Date.now() / 1000),
    updatedAt: Math.floor(Date.now() / 1000),
  });

  it('a bare record with only its token and message: issued passes, the owners skip, auth.token.fields warns alone', async () => {
    const result = await runAgainst((token) => ({ token, message: 'Success' }));
    expect(failing(result)).toEqual(['auth.token.fields']);
    const fields = check(result, 'auth.token.fields');
    expect(fields.outcome).toBe('warn');
    expect(fields.finding?.message).toBe(
      'the token record leaves out tokenId, expiresIn, maxTTL, tokenType, scope, trustedIps, organization, createdAt, updatedAt',
    );
    expect(fields.finding?.requirements).toEqual(['REQ-TOKEP-10', 'REQ-TOKEN-05']);
    const issued = check(result, 'auth.token.issued');
    expect(issued.outcome).toBe('pass');
    expect(issued.alsoSeen?.map((s) => [s.ownedBy, s.requirements])).toEqual([
      ['auth.token.fields', ['REQ-TOKEP-10']],
      ['auth.token.fields', ['REQ-TOKEP-10', 'REQ-TOKEN-05']],
    ]);
    for (const [id, field] of [
      ['auth.token.unique', 'tokenId'],
      ['auth.token.type-bearer', 'tokenType'],
      ['auth.token.scope', 'scope'],
      ['auth.token.trusted-ips', 'trustedIps'],
      ['auth.token.organization', 'organization'],
      ['auth.expiry.expires-in', 'expiresIn'],
    ]) {
      const c = check(result, id!);
      expect([c.outcome, c.skipReason], id).toEqual([
        'skip',
        `the token record has no ${field}, so there is nothing to judge here; auth.token.fields judges its presence`,
      ]);
      expect(c.alsoSeen?.map((s) => s.ownedBy)).toEqual(['auth.token.fields']);
    }
  });

  it("an enveloped record without a message of its own has the envelope's: nothing is missing", async () => {
    const result = await runAgainst((token, n) => {
      const { message: _left, ...record } = full(token, n);
      return { data: record, code: '200', message: 'Success' };
    });
    expect(failing(result)).toEqual([]);
    expect(check(result, 'auth.token.fields').outcome).toBe('pass');
  });

  it('message and tokenId have no type in the table: another type warns in auth.token.fields, which issued only records', async () => {
    const result = await runAgainst((token, n) => ({ ...full(token, n), message: 7, tokenId: { n } }));
    expect(failing(result)).toEqual(['auth.token.fields']);
    const fields = check(result, 'auth.token.fields');
    expect(fields.finding?.message).toBe(
      'message must be a string, got the number 7; tokenId must be a string or an integer, got an object',
    );
    expect(fields.finding?.requirements).toEqual(['REQ-TOKEN-01', 'REQ-TOKEP-10']);
    expect(check(result, 'auth.token.issued').outcome).toBe('pass');
  });

  it('what a row states is MUST where present: an organization without clientId fails issued; maxTTL of any type passes', async () => {
    const result = await runAgainst((token, n) => ({
      ...full(token, n),
      maxTTL: '60 minutes',
      organization: { id: 1, name: 'Org' },
    }));
    expect(failing(result)).toEqual(['auth.token.issued']);
    expect(check(result, 'auth.token.issued').finding?.message).toBe(
      "Auth token record: organization.clientId is missing, a field the spec's table requires",
    );
    // The check of clientId's value gives way: the shape is issued's.
    const org = check(result, 'auth.token.organization');
    expect([org.outcome, org.skipReason]).toEqual([
      'skip',
      'organization is not an object with a clientId; auth.token.issued judges its shape',
    ]);
  });
});
