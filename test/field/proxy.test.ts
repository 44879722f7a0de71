// A corporate network (issue 26): the staging server is reached only through the forward proxy HTTPS_PROXY names,
// Debian's squid here. The target's name resolves on the proxy alone (squid's hosts_file), so a request that did not go
// through the proxy could not reach it. A whole run passes (CONFORMANT) with every request in squid's access log;
// curl goes the same way; NO_PROXY and the config's "proxy" are honoured; a proxy that asks for credentials or is
// gone stops the run with one line naming it and the fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCertificate } from '../../src/receiver/certificate.js';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';
import { runCli } from '../helpers/cli.js';
import { SQUID_MISSING, skipWithoutSquid, startSquid, type Squid } from '../helpers/squid.js';
import { NO_PROXY_ENV, expectPassedWhole, writeNetworkConfig, type NetworkConfig } from '../helpers/network-target.js';
import { WAIT_MS } from '../helpers/waits.js';

/** A name only the proxy resolves (RFC 6761 reserves .test). */
const HOST = 'staging.conformance.test';

const tunnels = (log: string, port: number, user = '-') =>
  log.split('\n').filter((l) => l.includes(`TCP_TUNNEL/200`) && l.includes(`CONNECT ${HOST}:${port} ${user} `)).length;

describe.skipIf(skipWithoutSquid)(
  `a run through a forward proxy (squid)${SQUID_MISSING ? ` (${SQUID_MISSING})` : ''}`,
  () => {
    let local: LocalTarget;
    let squid: Squid;
    let config: NetworkConfig;
    let port: number;
    let baseUrl: string;
    beforeAll(async () => {
      local = await startLocalTarget({ tls: await makeCertificate([HOST]) });
      port = Number(new URL(local.target.baseUrl).port);
      baseUrl = `https://${HOST}:${port}/v1`;
      squid = await startSquid({ hosts: { [HOST]: '127.0.0.1' } });
      config = await writeNetworkConfig(local, {
        staging: { baseUrl },
        direct: { baseUrl, proxy: 'none' },
      });
    });
    afterAll(async () => {
      config?.remove();
      await squid?.stop();
      await local?.stop();
    });
    const cli = (args: string[], env: Record<string, string | undefined>) =>
      runCli([...args, '--config', config.file], { cwd: config.dir, env: { ...NO_PROXY_ENV, ...env } });

    it('passes whole (0 failures; CONFORMANT but for what only --long waits for), every request in a tunnel squid logged, the notes naming the proxy', async () => {
      const json = join(config.dir, 'whole.json');
      const res = await runCli(
        ['run', '--config', config.file, '--target', 'staging', '--json', json, '--fail-on', 'should'],
        {
          cwd: config.dir,
          env: { ...NO_PROXY_ENV, HTTPS_PROXY: squid.open },
          limitMs: 5 * WAIT_MS,
        },
      );
      expect(res.stderr).toBe('');
      expectPassedWhole(res.stdout);
      expect(res.code).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { run: { notes: string[] } };
      expect(report.run.notes).toContain(
        `network: the target was reached through the proxy ${squid.open} (HTTPS_PROXY), in a tunnel (CONNECT ${HOST}:${port}): the proxy passed the bytes on and saw none of them`,
      );
      // The name resolves on the proxy alone: every request went through it.
      const log = await squid.waitForLog((l) => tunnels(l, port) > 0);
      expect(log).not.toMatch(/TCP_DENIED|NONE_NONE|ERR_/);
    });

    it('sends conformance curl through the same proxy', async () => {
      const before = tunnels(squid.accessLog(), port);
      const res = await cli(['curl', '--target', 'staging', '/customers/1042'], { https_proxy: squid.open });
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(/^HTTP\/1\.1 200 OK$/m);
      expect(res.code).toBe(0);
      await squid.waitForLog((l) => tunnels(l, port) > before);
    });

    it('sends the user name and password of the proxy URL to a proxy that asks for them, and no report holds them', async () => {
      const url = squid.auth.replace('http://', 'http://field-tester:Sq1d-pa55@');
      const json = join(config.dir, 'auth.json');
      const har = join(config.dir, 'auth.har');
      const res = await cli(['run', '--target', 'staging', '--suite', 'auth', '--json', json, '--har', har], {
        HTTPS_PROXY: url,
      });
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(/^\d+ passed, 0 failed, 0 warned, \d+ skipped$/m);
      for (const text of [res.stdout, readFileSync(json, 'utf8'), readFileSync(har, 'utf8')]) {
        expect(text).not.toContain('Sq1d-pa55');
        expect(text).not.toContain(Buffer.from('field-tester:Sq1d-pa55').toString('base64'));
      }
      expect(readFileSync(json, 'utf8')).toContain(
        `the proxy ${squid.auth.replace('http://', 'http://[redacted]@')} (HTTPS_PROXY)`,
      );
      await squid.waitForLog((l) => tunnels(l, port, 'field-tester') > 0);
    });

    it('stops in one line naming the proxy when it asks for credentials none were given for (407)', async () => {
      const res = await cli(['run', '--target', 'staging', '--suite', 'auth'], { HTTPS_PROXY: squid.auth });
      expect(res.stderr).toBe(
        `conformance: target unreachable: POST ${baseUrl}/oauth/token: the proxy ${squid.auth} (HTTPS_PROXY) asks for a user name and password (answered 407 Proxy Authentication Required); the target was not tried; give them in HTTPS_PROXY: http://USER:PASSWORD@HOST:PORT (special characters percent-encoded) [CONFORMANCE_ERR_TARGET_UNREACHABLE]\n`,
      );
      expect(res.code).toBe(3);
    });

    it('stops in one line naming the proxy when nothing listens there', async () => {
      const res = await cli(['run', '--target', 'staging', '--suite', 'auth'], { HTTPS_PROXY: 'http://127.0.0.1:1' });
      expect(res.stderr).toBe(
        `conformance: target unreachable: POST ${baseUrl}/oauth/token: the proxy http://127.0.0.1:1 (HTTPS_PROXY) cannot be reached: nothing listens there (ECONNREFUSED); the target was not tried; check HTTPS_PROXY, or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target's "proxy" to "none" [CONFORMANCE_ERR_TARGET_UNREACHABLE]\n`,
      );
      expect(res.code).toBe(3);
    });

    it('goes directly where NO_PROXY or the config\'s "proxy": "none" says so (and the name then does not resolve)', async () => {
      for (const [target, env] of [
        ['staging', { HTTPS_PROXY: squid.open, NO_PROXY: `localhost,.conformance.test` }],
        ['direct', { HTTPS_PROXY: squid.open }],
      ] as const) {
        const res = await cli(['run', '--target', target, '--suite', 'auth'], env);
        expect(res.stderr).toMatch(
          new RegExp(
            `^conformance: target unreachable: POST https://${HOST.replaceAll('.', '\\.')}:${port}/v1/oauth/token: the name ${HOST.replaceAll('.', '\\.')} (does not resolve|could not be resolved)`,
          ),
        );
        expect(res.code).toBe(3);
      }
    });
  },
);
