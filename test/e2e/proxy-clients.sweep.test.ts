// The example clients through `conformance proxy` (issue 30, item 5): the reference server over TLS in this process, a
// config naming it (target "staging", the client's own credentials), `conformance proxy` as a child process, and an
// example client (examples/clients/ts, compiled) run as a child process with HTTPS_PROXY and the CA the proxy printed.
// Each session ends on SIGINT and is judged on both sides (the default: the config names the client). The good client:
// no finding on either side. Each broken client whose flaw traffic shows (signature, digest, idempotency key reuse):
// its own client check fails, on the client side, citing the exchange, and no other check, server side included. A
// server fault the good client's traffic shows (JSON labelled text/plain): the owning server check, on the server side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { clientEnv } from '../../src/client/client-env.js';
import { FLAWS, type FlawName } from '../../examples/clients/ts/flaws.js';
import { runCli } from '../helpers/cli.js';
import { deadline, proxyReport, startProxy, writeStagingConfig } from '../helpers/proxy-session.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BAD = ['fail', 'warn', 'error'];

let dir: string;
/** A reference server and the config file naming it target "staging". */
interface Server {
  local: LocalTarget;
  config: string;
}

let clean: Server;
let faulty: Server;

/** The reference server over TLS (with `faults`), the client's key file, and a config naming it. */
async function server(name: string, faults: string[] = []): Promise<Server> {
  const local = await startLocalTarget({ tls: await makeCertificate(['127.0.0.1']), faults });
  return { local, config: writeStagingConfig(dir, name, local) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-clients-'));
  clean = await server('clean');
  faulty = await server('faulty', ['resources.json-as-text-plain']);
});

afterAll(async () => {
  await clean.local.stop();
  await faulty.local.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One proxy session: `conformance proxy` started, the example client `args` run through it on the task `scenario` to
 * its end, then SIGINT; the proxy's exit code, output and JSON report.
 */
async function session(
  args: string[],
  scenario: string,
  { extra = [], fixtures = {}, to = clean }: { extra?: string[]; fixtures?: object; to?: Server } = {},
) {
  const { local, config } = to;
  const report = join(dir, `${[...args, scenario, ...extra].join('-').replace(/[^\w-]/g, '_')}.json`);
  const proxy = await startProxy(dir, ['--target', 'staging', '--config', config, '--json', report, ...extra]);
  const { banner, url, caFile: ca } = proxy;

  const t = local.target;
  const client = spawn(process.execPath, args, {
    cwd: root,
    env: clientEnv(
      {
        scenario,
        baseUrl: t.baseUrl,
        clientId: t.clientId,
        clientSecret: t.clientSecret,
        keyId: t.keyId,
        privateKeyFile: join(dir, `${to === clean ? 'clean' : 'faulty'}-key.pem`),
        // The client trusts the proxy's CA: the proxy presents a certificate for the target's host made with it.
        caFile: ca,
        fixtures: { ...t.fixtures, ...fixtures },
      },
      { ...process.env, HTTPS_PROXY: url, NO_PROXY: '' },
    ),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let clientErr = '';
  client.stderr.on('data', (c: Buffer) => (clientErr += c.toString()));
  const [clientCode] = (await deadline(once(client, 'exit'), 'the client to exit')) as [number | null];

  const { code, stdout: all, stderr } = await proxy.end();
  // What it printed after the lines a client needs.
  const stdout = all.slice(banner.length);
  const json = proxyReport(dir, report);
  // Both sides' checks in one report the report schema accepts.
  expect(reportSchemaErrors(json)).toBeUndefined();
  return { code, banner, stdout, stderr, clientCode, clientErr, json };
}

const GOOD = ['dist/examples/clients/ts/good.js'];
const broken = (flaw: FlawName) => ['dist/examples/clients/ts/broken.js', flaw];

describe('example clients through conformance proxy, judged on both sides', () => {
  it('the good client: no finding on either side; the client checks that judge requests pass', async () => {
    const s = await session(GOOD, 'read');
    expect(s.clientErr).toBe('');
    expect(s.clientCode).toBe(0);
    expect(s.banner).toMatch(/^judging both sides \(--side both, the default: the config names the client /m);
    expect(s.json.checks.filter((c) => BAD.includes(c.outcome)).map((c) => `${c.id}: ${c.finding?.message}`)).toEqual(
      [],
    );
    const passed = s.json.checks.filter((c) => c.outcome === 'pass').map((c) => c.id);
    expect(passed).toEqual(
      expect.arrayContaining([
        'client.requests.signed',
        'client.requests.digest',
        'client.requests.client-id',
        'client.requests.authorization',
        'client.requests.idempotency-key',
        'client.requests.idempotency-unique',
        'client.token.form',
        'client.paging.next-page',
        'pagination.meta.present',
        'auth.token.issued',
      ]),
    );
    // The checks traffic cannot exercise are counted, a line per side, not listed.
    expect(s.stdout).toMatch(/^ {2}- \d+ checks not exercised: each needs requests of its own/m);
    expect(s.stdout).toMatch(/^ {2}- 9 client checks not exercised: each needs a scenario of `conformance client`/m);
    expect(s.json.run.notes[0]).toMatch(/; side: both \(the client as conformance-local, keyid local-/);
    // Nothing in the preview lines either.
    expect(s.stdout.split('conformance proxy: SIGINT')[0]).not.toMatch(/^ {6}[✗!E] /m);
    expect(s.code).toBe(0);
  }, 60_000);

  it("the good client's USSD walk (home, then options 4 and 1 by their requestUrl): no finding, as it happens or at the end", async () => {
    const s = await session(GOOD, 'ussd', { fixtures: { ussdOptions: [4, 1] } });
    expect(s.clientErr).toBe('');
    expect(s.clientCode).toBe(0);
    expect(s.json.checks.filter((c) => BAD.includes(c.outcome)).map((c) => `${c.id}: ${c.finding?.message}`)).toEqual(
      [],
    );
    const passed = s.json.checks.filter((c) => c.outcome === 'pass').map((c) => c.id);
    expect(passed).toEqual(expect.arrayContaining(['client.ussd.given-urls', 'ussd.view.schema']));
    expect(s.stdout.split('conformance proxy: SIGINT')[0]).not.toMatch(/^ {6}[✗!E] /m);
    expect(s.code).toBe(0);
  }, 60_000);

  it("a server fault the good client's traffic shows: the owning server check, on the server side; the client side clean", async () => {
    const s = await session(GOOD, 'token', { to: faulty });
    expect(s.clientCode).toBe(0);
    const found = s.json.checks.filter((c) => BAD.includes(c.outcome));
    expect(found.map((c) => [c.id, c.outcome])).toEqual([['resources.responses.json-type', 'warn']]);
    expect(found[0]!.finding!.message).toMatch(/^server side: /);
    expect(found[0]!.exchanges.some((e) => e.checkId === 'observed')).toBe(true);
    // A SHOULD: exit 0 under the default --fail-on must.
    expect(s.code).toBe(0);
  }, 60_000);

  const SHOWN: FlawName[] = ['bad-signature', 'no-digest', 'reused-idempotency-key'];
  it.each(SHOWN)(
    'broken client %s: its own client check fails, on the client side, citing the exchange',
    async (flaw) => {
      const [owner] = FLAWS[flaw].fails;
      const s = await session(broken(flaw), FLAWS[flaw].scenario);
      const found = s.json.checks.filter((c) => BAD.includes(c.outcome));
      expect(found.map((c) => c.id)).toEqual([owner]);
      const [check] = found;
      expect(check!.finding!.message).toMatch(/^client side: /);
      expect(check!.exchanges.some((e) => e.checkId === 'observed')).toBe(true);
      // A flaw one request shows is in the preview under that exchange already, naming the side; a key reused needs
      // two requests, which only the session's judging sees.
      const preview = s.stdout.split('conformance proxy: SIGINT')[0]!;
      if (flaw === 'reused-idempotency-key') expect(preview).not.toContain(`✗ ${owner}`);
      else expect(preview).toContain(`✗ ${owner}  MUST  client side: `);
      expect(s.code).toBe(1);
    },
    60_000,
  );

  it('--side server judges the server alone; an unknown side exits 2 in one line before listening', async () => {
    const s = await session(broken('bad-signature'), 'token', { extra: ['--side', 'server'] });
    expect(s.banner).toMatch(/^judging the server's side \(--side server\)$/m);
    expect(s.json.checks.some((c) => c.id.startsWith('client.'))).toBe(false);
    expect(s.json.checks.filter((c) => BAD.includes(c.outcome))).toEqual([]);
    expect(s.code).toBe(0);

    const args = ['proxy', '--target', 'staging', '--config', clean.config, '--side', 'clients'];
    const odd = await runCli(args, { cwd: dir });
    expect(odd.code).toBe(2);
    expect(odd.stdout).toBe('');
    expect(odd.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--side: "clients" is not a side; give server, client or both.*CONFORMANCE_ERR_JUDGE_SIDE/),
    ]);
  }, 60_000);
});
