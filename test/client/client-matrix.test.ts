// The client detection matrix in npm test: the committed docs/client-matrix.json against the client checks and the
// example clients as they are now (stale when either changed), with no problem, the Markdown drawn from it; and the
// good client run afresh, row for row as committed. Every
// example client against every scenario is `npm run matrix:check`, which CI runs.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  clientFingerprint,
  clientMatrixProblems,
  clientRow,
  renderClientMatrix,
  type ClientMatrixJson,
} from '../../src/matrix/client-detection.js';
import { exampleClients } from '../../src/matrix/example-clients.js';
import { runClient } from '../../src/client-api.js';
import type { ScenarioName } from '../../src/client/types.js';
import { clientSuites } from '../../suites/client/index.js';
import { FLAWS } from '../../examples/clients/ts/flaws.js';
import { pool } from '../../src/pool.js';

const committed = JSON.parse(
  readFileSync(new URL('../../docs/client-matrix.json', import.meta.url), 'utf8'),
) as ClientMatrixJson;
const clients = exampleClients(FLAWS);

describe('the committed client detection matrix (docs/client-matrix.json)', () => {
  it('was made with the client checks and example clients there are now, and shows no problem', () => {
    expect(committed.fingerprint, 'stale: run npm run matrix and commit docs/').toBe(
      clientFingerprint(clientSuites, clients),
    );
    expect(committed.rows.map((r) => r.name)).toEqual(clients.map((c) => c.name));
    expect(clientMatrixProblems(committed)).toEqual([]);
    // Every MUST and SHOULD client check is some broken client's own, caught by it.
    const caught = new Set(committed.rows.flatMap((r) => r.caughtBy));
    const graded = clientSuites.flatMap((s) => s.checks).filter((c) => c.level !== 'INFO');
    expect(graded.filter((c) => !caught.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(readFileSync(new URL('../../docs/client-matrix.md', import.meta.url), 'utf8')).toBe(
      renderClientMatrix(committed),
    );
  });

  it('holds each row to the verdict its expectations decide, and a correct client to exactly the checks it must leave unexercised', () => {
    const row = (name: string) => ({ ...committed.rows.find((r) => r.name === name)! });
    expect(row('own-ussd-route')).toMatchObject({
      fails: [],
      verdict: 'INCOMPLETE',
      due: 'INCOMPLETE',
      unexercised: ['client.ussd.route'],
      notExercised: ['client.ussd.route'],
    });
    expect(row('reused-idempotency-key')).toMatchObject({ verdict: 'NOT CONFORMANT', due: 'NOT CONFORMANT' });
    // The same rows as a matrix would see them had the route check passed without judging, or the flaw been a SHOULD.
    const passedUnjudged = { ...row('own-ussd-route'), verdict: 'CONFORMANT', notExercised: [] };
    const mildFlaw = { ...row('reused-idempotency-key'), verdict: 'INCOMPLETE' };
    expect(clientMatrixProblems({ ...committed, rows: [passedUnjudged, mildFlaw] })).toEqual([
      'own-ussd-route: judged CONFORMANT, due INCOMPLETE',
      'own-ussd-route: must leave exactly client.ussd.route unexercised; the verdict names none',
      'reused-idempotency-key: judged INCOMPLETE, due NOT CONFORMANT',
    ]);
  });

  // The good client, every scenario, CONFORMANT: the harness, the checks and the example as they are now. A broken
  // client's row needs the same machinery again for one flaw; the whole matrix (CI) runs them all.
  it.each([['good']])('runs %s afresh, row for row as committed', async (...names) => {
    const chosen = names.map((n) => clients.find((c) => c.name === n)!);
    const rows = await pool(chosen, chosen.length, async (c) =>
      clientRow(
        c,
        await runClient({
          command: c.command,
          ...(c.scenarios ? { scenarios: c.scenarios as ScenarioName[] } : {}),
        }),
      ),
    );
    expect(rows).toEqual(names.map((n) => committed.rows.find((r) => r.name === n)));
  });
});
