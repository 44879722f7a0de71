// `conformance proxy` end to end (issue 30): the reference server over TLS in this process, `conformance proxy` as a
// child process in front of it, and a real signed client (the suite's SignedClient, through undici's ProxyAgent,
// trusting the CA the proxy printed) sending a token request, list and read requests through it. On SIGINT the proxy
// judges the session: a clean server gives exit 0, every judged check passed and no finding; a server fault that
// traffic shows (list answers without paging meta) gives exit 1, the owning check failed citing the exchange. Errors
// a user can cause (port taken, CA path not writable, unknown target) end in one line and exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateCa } from '../../src/proxy/ca.js';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { runCli } from '../helpers/cli.js';
import {
  clientThroughProxy,
  proxyReport,
  startProxy as startProxyIn,
  writeStagingConfig,
} from '../helpers/proxy-session.js';

let dir: string;
const servers: LocalTarget[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-proxy-e2e-'));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The reference server over TLS (with `faults`), and a config file naming it target "staging". */
async function serverAndConfig(name: string, faults: string[] = []) {
  const local = await startLocalTarget({ tls: await makeCertificate(['127.0.0.1']), faults });
  servers.push(local);
  return { local, config: writeStagingConfig(dir, name, local) };
}

/** `conformance proxy` as a child process in this file's folder; resolves once it printed what a client needs. */
const startProxy = (args: string[]) => startProxyIn(dir, args);

/** A correct client's session through the proxy: a token, then list and read requests with it. */
async function clientSession(local: LocalTarget, proxy: { url: string; ca: string }) {
  const { client, token } = await clientThroughProxy(local, proxy);
  try {
    const f = local.target.fixtures;
    const statuses: number[] = [];
    for (const spec of [
      { path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS', limit: 2 } },
      { path: '/accounts', query: { customerId: f.customerId! } },
      { path: `/customers/${f.customerId}` },
      { path: `/accounts/${f.accountId}` },
      { path: '/transactions', query: { customerId: f.customerId! } },
      { path: `/customers/${f.unknownId}` },
    ])
      statuses.push((await client.send({ method: 'GET', ...spec, token })).status);
    return statuses;
  } finally {
    await client.close();
  }
}

const report = (file: string) => proxyReport(dir, file);

describe('conformance proxy', () => {
  it('in front of a clean server: a line per exchange, then the judged checks pass with no finding, exit 0', async () => {
    const { local, config } = await serverAndConfig('clean');
    const proxy = await startProxy([
      '--target',
      'staging',
      '--config',
      config,
      '--ca-out',
      join(dir, 'ca.pem'),
      '--json',
      'clean.json',
    ]);
    expect(proxy.banner).toMatch(/made now/);
    expect(proxy.banner).toContain(`NODE_EXTRA_CA_CERTS=${join(dir, 'ca.pem')}`);
    expect(proxy.banner).toContain(`REQUESTS_CA_BUNDLE=${join(dir, 'ca.pem')}`);
    expect(proxy.banner).toContain(`curl --proxy ${proxy.url} --cacert ${join(dir, 'ca.pem')}`);
    // The CA's key is kept beside it, readable by its owner only.
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);

    const statuses = await clientSession(local, proxy);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    // Each exchange has its line as it happens (the last one awaited before the session ends).
    await proxy.printed(/#7 GET \/customers\/\d+ → 404/);
    const { code, stdout, stderr } = await proxy.end();
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^ {2}#1 POST \/oauth\/token → 200 \(\d+ ms\)$/m);
    expect(stdout).toMatch(/^ {2}#2 GET \/instruments\?investmentType=INTERNATIONAL_STOCKS&limit=2 → 200/m);
    expect(stdout).toMatch(/^ {2}#7 GET \/customers\/\d+ → 404/m);
    // Nothing found in any exchange alone: no finding line under any.
    expect(stdout).not.toMatch(/^ {6}[✗!E] /m);
    expect(stdout).toMatch(/conformance proxy: SIGINT: judging/);
    // The terminal report: the not-exercised checks in one line.
    expect(stdout).toMatch(/^ {2}- \d+ checks not exercised: .*\(-v lists them\)$/m);
    expect(stdout).toMatch(/^INCOMPLETE: /m);
    expect(code).toBe(0);

    const r = report('clean.json');
    const judged = r.checks.filter((c) => c.outcome !== 'skip');
    expect(judged.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'auth.token.type-bearer',
        'auth.token.scope',
        'pagination.meta.present',
        'resources.errors.body',
        'resources.errors.message-text',
        'resources.responses.json-type',
      ]),
    );
    expect(judged.filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.finding?.message])).toEqual([]);
    expect(r.verdict.status).toBe('INCOMPLETE');
  });

  it('in front of a server whose lists carry no paging meta: the owning check fails citing the exchange, exit 1', async () => {
    const { local, config } = await serverAndConfig('faulty', ['pagination.meta-missing']);
    // A CA made by an earlier session is reused: the client trusts it once.
    const earlier = await loadOrCreateCa(join(dir, 'reused-ca.pem'));
    const proxy = await startProxy([
      '--target',
      'staging',
      '--config',
      config,
      '--ca-out',
      join(dir, 'reused-ca.pem'),
      '--json',
      'faulty.json',
    ]);
    expect(proxy.banner).not.toMatch(/made now/);
    expect(proxy.ca).toBe(earlier.cert);
    await clientSession(local, proxy);
    const { code, stdout } = await proxy.end();
    expect(code).toBe(1);
    // As it happened: each list answer's line, with what the judges found in it alone under it.
    for (const list of [
      'instruments\\?investmentType=INTERNATIONAL_STOCKS&limit=2',
      'accounts\\?customerId=\\d+',
      'transactions\\?customerId=\\d+',
    ])
      expect(stdout).toMatch(
        new RegExp(
          `^  #\\d+ GET /${list} → 200 \\(\\d+ ms\\)\\n {6}✗ pagination\\.meta\\.present  MUST  .*meta is absent`,
          'm',
        ),
      );
    expect(stdout).toMatch(/^ {2}#4 GET \/customers\/\d+ → 200 \(\d+ ms\)\n {2}#5 /m);
    expect(stdout).toMatch(/^NOT CONFORMANT: /m);
    const r = report('faulty.json');
    // The owning check fails, and no other check finds anything.
    const failed = r.checks.filter((c) => c.outcome !== 'pass' && c.outcome !== 'skip');
    expect(failed.map((c) => [c.id, c.outcome])).toEqual([['pagination.meta.present', 'fail']]);
    const owner = failed[0]!;
    expect(owner.exchanges.length).toBeGreaterThan(0);
    for (const e of owner.exchanges) {
      expect(e.checkId).toBe('observed');
      expect(e.request.url).toMatch(/\/v1\/(instruments|accounts|transactions)\?/);
    }
  });

  it('--duration ends a session without traffic by itself: nothing judged, INCOMPLETE, exit 0; the CA kept beside the config', async () => {
    const { config } = await serverAndConfig('idle');
    const proxy = await startProxy(['--target', 'staging', '--config', config, '--duration', '200ms']);
    // Without --ca-out, the CA is kept in .conformance/ beside the config file, made on first use.
    expect(proxy.caFile).toBe(join(dir, '.conformance', 'proxy-ca.pem'));
    expect(statSync(join(dir, '.conformance', 'proxy-ca-key.pem')).mode & 0o777).toBe(0o600);
    const { code, stdout } = await proxy.end(false);
    expect(stdout).toMatch(/conformance proxy: --duration 0\.2 s: judging/);
    expect(stdout).toMatch(/^0 passed, 0 failed, 0 warned, \d+ skipped$/m);
    expect(stdout).toMatch(/^INCOMPLETE: /m);
    expect(code).toBe(0);
  });

  it('ends in one line and exit 2 for an unknown target, a port taken and a CA path that cannot be written', async () => {
    const { config } = await serverAndConfig('errors');
    const unknown = await runCli(['proxy', '--target', 'nope', '--config', config], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringMatching(/CONFORMANCE_ERR_UNKNOWN_TARGET\]$/)]);

    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = await runCli(
        ['proxy', '--target', 'staging', '--config', config, '--ca-out', join(dir, 'ca.pem'), '--port', String(port)],
        { cwd: dir },
      );
      expect(busy.code).toBe(2);
      expect(busy.stderr.trim().split('\n')).toEqual([
        `conformance: proxy: cannot listen on 127.0.0.1:${port}: the port is taken; free it or choose another (--port 0 picks a free one) [CONFORMANCE_ERR_PROXY_LISTEN]`,
      ]);
    } finally {
      taken.close();
    }

    const nowhere = join(dir, 'no-such-folder', 'ca.pem');
    const unwritable = await runCli(['proxy', '--target', 'staging', '--config', config, '--ca-out', nowhere], {
      cwd: dir,
    });
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: proxy CA: cannot write .*no-such-folder.*: its folder .* does not exist; .*\[CONFORMANCE_ERR_PROXY_CA\]$/,
      ),
    ]);
    expect(unwritable.stdout).toBe('');
  });
});
