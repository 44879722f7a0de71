// Client checks of area token: how the client asks for its token (Authentication endpoints, Authentication 1) and
// that it gives the token back when it is done (Authentication 3), judged from the recorded scenarios (kit.ts). The
// form is judged in observed traffic too (`observe`); whether the client revokes its token when done is not: the end of
// the traffic is not the end of the client's task.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { cite, observedTraffic, scenariosRun, stopWhenBlocked, type ClientRequest, type ClientTraffic } from './kit.js';
import {
  bearerOf,
  header,
  isRevoke,
  isTokenRequest,
  issuedTokens,
  named,
  stopWhenUnissued,
  succeeded,
} from './traffic.js';

const FORM = 'application/x-www-form-urlencoded';

const form = defineCheck({
  id: 'client.token.form',
  title: 'The token request is form-encoded with clientId and clientSecret',
  level: 'MUST',
  requirements: ['REQ-TOKEP-02', 'REQ-AUTH-01'],
  explain: {
    sends: 'Nothing: reads every POST /oauth/token the client sent, in every scenario that ran.',
    passes: `Each has Content-Type ${FORM} and a body of that form with exactly one clientId, equal to the client id handed to the client, and exactly one non-empty clientSecret; the sandbox accepted the secret.`,
    fails:
      'A token request in JSON or another media type, a form without clientId or clientSecret (or with two), a clientId of another client, or a secret the sandbox refused (CLIENT_SECRET_WRONG).',
  },
  async run(ctx) {
    const records = scenariosRun(ctx);
    const tokenRequests = records.flatMap((record) =>
      record.requests.filter(isTokenRequest).map((r) => ({ record, r })),
    );
    if (tokenRequests.length === 0) {
      stopWhenBlocked(
        ctx,
        records.flatMap((x) => x.requests),
      );
      ctx.skip('the client sent no token request');
    }
    judgeForm(ctx, tokenRequests);
  },
  async observe(ctx) {
    const record = observedTraffic(ctx);
    const tokenRequests = record.requests.filter(isTokenRequest).map((r) => ({ record, r }));
    if (tokenRequests.length === 0) ctx.skip('the traffic holds no token request');
    const kept = tokenRequests.filter(({ r }) => r.withheld?.body !== true);
    if (kept.length === 0)
      ctx.skip(`${tokenRequests.length} token request(s), none whose body the traffic kept (saved without bodies)`);
    judgeForm(ctx, kept);
  },
});

/** In observed traffic without the client's id given, one non-empty clientId is what can be judged. */
function judgeForm(ctx: CheckContext, tokenRequests: Array<{ record: ClientTraffic; r: ClientRequest }>): void {
  for (const { record, r } of tokenRequests) {
    const contentType = header(r, 'content-type');
    const media = contentType?.split(';')[0]?.trim().toLowerCase();
    const body = r.body.toString('utf8');
    const fields = new URLSearchParams(body);
    const ids = fields.getAll('clientId');
    const secrets = fields.getAll('clientSecret');
    const expected = `Content-Type: ${FORM}; body clientId=${record.clientId ?? '<the client id>'}&clientSecret=<the secret handed over>`;
    // The form's names only: the secret stays out of the report.
    const observed = `Content-Type: ${contentType ?? '(none)'}; ${media === FORM ? `form fields: ${[...new Set(fields.keys())].join(', ') || '(none)'}` : `a ${r.body.length}-byte body`}`;
    const defect =
      media !== FORM
        ? `its Content-Type is ${contentType ?? 'absent'}, not ${FORM}`
        : ids.length !== 1
          ? `its form carries clientId ${ids.length} times`
          : (record.clientId !== undefined ? ids[0] !== record.clientId : ids[0] === '')
            ? `its form names ${record.clientId !== undefined ? 'another' : 'an empty'} clientId`
            : secrets.length !== 1 || secrets[0] === ''
              ? `its form carries ${secrets.length === 1 ? 'an empty' : `${secrets.length}`} clientSecret`
              : r.rejection?.code.startsWith('CLIENT_SECRET_')
                ? `the sandbox refused the secret (${r.rejection.code})`
                : undefined;
    if (defect !== undefined) ctx.fail(`${named(r)}: ${defect}`, { expected, observed, exchange: cite(ctx, r) });
    ctx.judged(named(r));
  }
}

/** The scenarios whose task ends by revoking the token (throttle and webhooks end otherwise; renew is judged on renewing). */
const REVOKING = ['token', 'read', 'update', 'ussd'] as const;

const revoked = defineCheck({
  id: 'client.token.revoked',
  title: 'The client revokes its token when it is done',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-16'],
  explain: {
    sends: `Nothing: reads the scenarios ${REVOKING.join(', ')} (those that ran): the token replies and the POST /oauth/revoke requests.`,
    passes:
      'In each, the last token the sandbox issued to the client is revoked before the command ends: a POST /oauth/revoke presenting it (Authorization: Bearer <that token>) that the sandbox answered 2xx.',
    fails:
      'A scenario in which the client leaves its last token live: no POST /oauth/revoke, a revocation of an older token, or one the sandbox refused.',
  },
  async run(ctx) {
    const records = scenariosRun(ctx).filter((r) => (REVOKING as readonly string[]).includes(r.scenario));
    if (records.length === 0) ctx.skip(`none of the scenarios ${REVOKING.join(', ')} was run (--scenario)`);
    let judged = 0;
    for (const record of records) {
      stopWhenBlocked(ctx, record.requests);
      stopWhenUnissued(ctx, record);
      const last = issuedTokens(record).at(-1);
      if (last === undefined) continue;
      judged++;
      const revocation = record.requests.find((r) => r.seq > last.seq && isRevoke(r) && bearerOf(r) === last.token);
      if (revocation !== undefined && succeeded(revocation)) {
        ctx.judged(`scenario ${record.scenario}`);
        continue;
      }
      const tokenReply = record.requests.find((r) => r.seq === last.seq)!;
      cite(ctx, tokenReply);
      ctx.fail(
        revocation === undefined
          ? `scenario ${record.scenario}: the client did not revoke the token of ${named(tokenReply)}`
          : `scenario ${record.scenario}: the sandbox answered the revocation ${revocation.status}`,
        {
          expected:
            'POST /oauth/revoke presenting the last token issued (Authorization: Bearer <that token>), answered 2xx, before the command ends',
          observed:
            revocation === undefined
              ? `${record.requests.filter(isRevoke).length} POST /oauth/revoke presenting other tokens or none; the command ended by ${record.end.endedBy}`
              : `${named(revocation)} answered ${revocation.status}${revocation.rejection ? ` (${revocation.rejection.code})` : ''}`,
          exchange: revocation !== undefined ? cite(ctx, revocation) : cite(ctx, tokenReply),
        },
      );
    }
    if (judged === 0)
      ctx.skip('the sandbox issued no token in these scenarios (client.requests.authorization says why)');
  },
});

export default defineSuite({
  name: 'client.token',
  title: 'Client: token',
  checks: [form, revoked],
});
