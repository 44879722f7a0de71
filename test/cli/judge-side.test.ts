// `conformance judge FILE.har --side client|both` (issue 30): the client's side of recorded traffic, judged as the
// client a target of the config names (its clientId, keyId and key). The traffic is a `run` of the resources suite
// against the reference server: the suite's own client, which sends some requests broken on purpose (no Authorization,
// to see the 401), so the client side has findings of its own, each naming its side and citing the exchange. The server
// side of the same HAR stays clean, and `both` reports the two packs in one report, exit code the worst of both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/api.js';
import { judge } from '../../src/judge-api.js';
import { JudgeSideError } from '../../src/errors.js';
import type { LoadedConfig } from '../../src/config/types.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { clientSuites, NOT_EXERCISED_CLIENT } from '../../suites/client/index.js';
import { pack } from '../../suites/index.js';
import { runCli } from '../helpers/cli.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const quiet = { onNote: () => undefined };
const BAD = ['fail', 'warn', 'error'];

let dir: string;
let har: string;
let local: LocalTarget;
let config: LoadedConfig;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-judge-side-'));
  har = join(dir, 'run.har');
  local = await startLocalTarget();
  config = { targets: { staging: { ...local.target, name: 'staging' } } };
  await run({ config, target: 'staging', suites: ['resources'], har });
}, 60_000);

afterAll(async () => {
  await local.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('conformance judge --side', () => {
  it('client: every client check is listed, those without observe not exercised; each finding names the client side and cites its exchange', async () => {
    const result = await judge({ file: har, target: 'staging', config, side: 'client', ...quiet });
    const clientIds = clientSuites.flatMap((s) => s.checks.map((c) => c.id));
    expect(result.checks.map((c) => c.id)).toEqual(clientIds);
    const notExercised = result.checks.filter((c) => c.skipReason === NOT_EXERCISED_CLIENT).map((c) => c.id);
    expect(notExercised).toContain('client.token.revoked');
    expect(notExercised).not.toContain('client.requests.signed');
    // A run's HAR masks signatures and keeps no request body: the checks that need them say so, judging nothing.
    expect(result.checks.find((c) => c.id === 'client.requests.signed')?.skipReason).toMatch(
      /none whose Signature and Signature-Input the traffic kept \(masked at the source\)/,
    );
    expect(result.checks.find((c) => c.id === 'client.requests.client-id')?.outcome).toBe('pass');
    // The run sends requests without Authorization on purpose (to see the 401): the client side says so.
    const found = result.checks.filter((c) => BAD.includes(c.outcome));
    expect(found.map((c) => c.id)).toContain('client.requests.authorization');
    for (const c of found) {
      expect(c.finding?.message).toMatch(/^client side: /);
      expect(c.exchanges.some((e) => e.checkId === 'observed')).toBe(true);
    }
    // Never more than the traffic exercised.
    expect(result.verdict.status).not.toBe('CONFORMANT');
    expect(result.exitCode).toBe(1);
  });

  it("both: the server's and the client's checks in one report, ids apart, findings naming their side, exit code the worst", async () => {
    const server = await judge({ file: har, target: 'staging', config, ...quiet });
    expect(server.checks.filter((c) => BAD.includes(c.outcome)).map((c) => c.id)).toEqual([]);
    expect(server.exitCode).toBe(0);

    const json = join(dir, 'both.json');
    const both = await judge({ file: har, target: 'staging', config, side: 'both', json, ...quiet });
    expect(reportSchemaErrors(JSON.parse(await readFile(json, 'utf8')))).toBeUndefined();
    const serverIds = pack.suites.flatMap((s) => s.checks.map((c) => c.id));
    const clientIds = clientSuites.flatMap((s) => s.checks.map((c) => c.id));
    expect(both.checks.map((c) => c.id)).toEqual([...serverIds, ...clientIds]);
    expect(serverIds.filter((id) => clientIds.includes(id))).toEqual([]);
    const found = both.checks.filter((c) => BAD.includes(c.outcome));
    expect(found.length).toBeGreaterThan(0);
    for (const c of found)
      expect(c.finding?.message).toMatch(c.id.startsWith('client.') ? /^client side: / : /^server side: /);
    // The same server checks judged the same answers: same outcomes as --side server.
    const outcome = (r: typeof server, id: string) => r.checks.find((c) => c.id === id)?.outcome;
    for (const id of serverIds) expect([id, outcome(both, id)]).toEqual([id, outcome(server, id)]);
    expect(both.exitCode).toBe(1);
  });

  it('the client side without a target, or an unknown side: exit 2 in one line', async () => {
    await expect(judge({ file: har, side: 'client', ...quiet })).rejects.toBeInstanceOf(JudgeSideError);
    const none = await runCli(['judge', har, '--side', 'both']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /--side both: the client is judged as a target of the config names it .*give --target NAME.*CONFORMANCE_ERR_JUDGE_SIDE/,
      ),
    ]);
    const odd = await runCli(['judge', har, '--side', 'clients']);
    expect(odd.code).toBe(2);
    expect(odd.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--side: "clients" is not a side; give server, client or both/),
    ]);
  });

  it('from the command line: --target with --side client says the side and the client in the run note', async () => {
    const file = join(dir, 'conformance.config.json');
    const key = join(dir, 'key.pem');
    const t = local.target;
    await writeFile(key, t.privateKeyPem, { mode: 0o600 });
    await writeFile(
      file,
      JSON.stringify({
        targets: {
          staging: {
            baseUrl: t.baseUrl,
            clientId: t.clientId,
            clientSecret: t.clientSecret,
            keyId: t.keyId,
            privateKeyFile: './key.pem',
          },
        },
      }),
      { mode: 0o600 },
    );
    const judged = await runCli([
      'judge',
      har,
      '--target',
      'staging',
      '--config',
      file,
      '--side',
      'client',
      '--json',
      join(dir, 'c.json'),
    ]);
    expect(judged.code).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'c.json'), 'utf8')) as { run: { notes: string[] } };
    expect(reportSchemaErrors(report)).toBeUndefined();
    expect(report.run.notes[0]).toMatch(
      /^judged \d+ exchange\(s\) of .*run\.har .*; side: client \(the client as conformance-local, keyid local-[0-9a-f]+, of target staging\)$/,
    );
    expect(judged.stdout).toMatch(/✗ client\.requests\.authorization/);
    expect(judged.stdout).toMatch(
      /^ {2}- 9 client checks not exercised: each needs a scenario of `conformance client` .*\(-v lists them\)$/m,
    );
    expect(judged.stdout).not.toMatch(/client\.token\.revoked/);
  });
});
