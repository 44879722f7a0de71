// `conformance proxy --receiver URL` end to end (issue 30, the webhook leg): the reference server over TLS in this
// process (trusting the proxy's CA for its deliveries, as `serve --webhook-ca` does), `conformance proxy` as a child in
// front of it and of a small receiver of this test that answers 200, and a signed client through the proxy that
// registers the proxy's printed receiver address (POST /webhooks) and reads GET /webhooks/key. A delivery goes through
// the proxy's receiver leg, unchanged, to the test's receiver; on SIGINT the session is judged: from a clean server the
// delivery verifies (no finding). From a server with each delivery fault, the owning checks fail citing the delivery:
// the sweep beside it (proxy-receiver.sweep.test.ts).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { receiverLeg } from '../helpers/receiver-leg.js';

const { caOut, clientReceiver, serverAndConfig, startProxy, registerThroughProxy, report, dir } =
  receiverLeg('proxy-receiver');

describe('conformance proxy --receiver', () => {
  it('forwards a delivery unchanged to the client receiver; from a clean server it verifies, no finding', async () => {
    const { local, config } = await serverAndConfig('clean');
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', caOut()],
        ...['--receiver', receiver.url, '--json', 'clean.json'],
      ]);
      // The address to register: the leg's, with the path and query of the client's receiver.
      expect(proxy.webhookUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/hooks\/investments\?tenant=7$/);
      expect(proxy.banner).toContain(`in place of ${receiver.url}`);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await receiver.arrived();
      // Forwarded unchanged: its path and query, its signature fields, a JSON body.
      const first = receiver.got[0]!;
      expect(first.method).toBe('POST');
      expect(first.url).toBe('/hooks/investments?tenant=7');
      expect(first.headers['signature-input']).toBeDefined();
      expect(first.headers['content-digest']).toBeDefined();
      expect(() => JSON.parse(first.body) as unknown).not.toThrow();
      await proxy.printed(/^ {2}#\d+ delivery POST \/hooks\/investments\?tenant=7 → 200 from the client's receiver/m);
      const { code, stdout, stderr } = await proxy.end();
      expect(stderr).toBe('');
      expect(stdout).toMatch(/webhook deliver\(ies\) forwarded to http:\/\/127\.0\.0\.1:\d+\/hooks\/investments/);
      expect(code).toBe(0);
      const r = report('clean.json');
      const verified = r.checks.find((c) => c.id === 'webhooks.delivery.verified')!;
      expect(verified.outcome).toBe('pass');
      for (const id of ['webhooks.delivery.digest-covered', 'webhooks.delivery.in-window'])
        expect(r.checks.find((c) => c.id === id)?.outcome).toBe('pass');
      expect(verified.observations?.join('\n')).toMatch(/deliveries carry a matching digest and a signature/);
      expect(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("says so when the server's deliveries fail at the leg's TLS handshake (it does not trust the proxy's CA)", async () => {
    const { local, config } = await serverAndConfig('untrusting', [], false);
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', caOut()],
        ...['--receiver', receiver.url, '--json', 'untrusting.json'],
      ]);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await proxy.printed(
        /^ {2}webhooks: the server's TLS handshake with the webhook leg failed \(.+\): it must trust/m,
      );
      const { code, stdout } = await proxy.end();
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /0 webhook deliver\(ies\) forwarded to \S+; \d+ TLS handshake\(s\) of the server with the webhook leg failed/,
      );
      expect(receiver.got).toEqual([]);
      const verified = report('untrusting.json').checks.find((c) => c.id === 'webhooks.delivery.verified')!;
      expect(verified.outcome).toBe('skip');
    } finally {
      await receiver.close();
    }
  });

  it('ends in one line and exit 2 for a --receiver that is not an http(s) URL', async () => {
    const { config } = await serverAndConfig('errors');
    const bad = await runCli(['proxy', '--target', 'staging', '--config', config, '--receiver', 'ftp://x/y'], {
      cwd: dir(),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--receiver: "ftp:\/\/x\/y" is not an http/)]);
  });
});
