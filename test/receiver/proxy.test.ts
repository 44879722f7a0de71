// The webhook receiver behind a proxy (issue 26): deliveries a proxy in front rewrote (a prefix forwarded to the root, a
// query dropped) are read back as sent to the URL the server was given, when their query or their signature tells which;
// a server that signs another URL than it sends to still fails; what cannot be read back is unmapped, a set-up problem.
// And what the receiver sees of its set-up: plain HTTP on its TLS port, and the run's own request through publicUrl.
import { describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { Agent, request } from 'undici';
import { contentDigest } from '../../src/http/digest.js';
import { nowSeconds, signRequest } from '../../src/http/signature.js';
import type { WebhookConfig } from '../../src/config/types.js';
import { describeDelivery, startReceiver, type WebhookReceiver } from '../../src/receiver/receiver.js';
import { unreachedDiagnosis } from '../../src/receiver/diagnosis.js';
import { COMPONENTS, publicKey, serverKey, stoppedAfterEach } from '../helpers/receiver-setup.js';
import { WAIT_MS } from '../helpers/waits.js';

const { running, agents } = stoppedAfterEach();

async function receiver(webhook: Partial<WebhookConfig>): Promise<WebhookReceiver> {
  const r = await startReceiver({ listen: '127.0.0.1:0', tls: 'none', ...webhook });
  running.push(r);
  return r;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A delivery signed for `url` (what the server was given), arriving at the receiver at `arrived` (what the proxy made of it). */
async function deliver(r: WebhookReceiver, url: string, arrived: string, components = COMPONENTS): Promise<void> {
  const body = JSON.stringify({ event: 'AUTH.CREATED', data: { tokenId: 't-1' } });
  const headers: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['content-length', String(Buffer.byteLength(body))],
    ['content-digest', contentDigest(body)],
  ];
  const created = nowSeconds();
  const signed = signRequest(
    { method: 'POST', url, headers },
    { keyId: 'k', privateKey: serverKey.seed, components, created, expires: created + 300 },
  );
  headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
  const agent = new Agent();
  agents.push(agent);
  const res = await request(`http://${r.listening}${arrived}`, {
    method: 'POST',
    headers: headers.flat(),
    body,
    dispatcher: agent,
  });
  await res.body.dump();
}

/** The receiver's deliveries once verified: where each arrived, where it is read as sent, its route and state. */
async function read(r: WebhookReceiver) {
  await r.settled();
  return r.arrivals.map((d) => ({
    arrived: d.arrived,
    path: d.path,
    route: d.route,
    state: d.state,
    reason: d.reason,
  }));
}

describe('the webhook receiver behind a proxy', () => {
  it('reads back a prefix forwarded to the root by the query: each URL judged as the server was given it', async () => {
    const publicUrl = 'https://hooks.example.com/hook';
    const r = await receiver({ publicUrl });
    r.useKey(publicKey);
    await deliver(r, r.url, '/');
    await deliver(r, r.alternateUrl, '/?conformance-url=2');
    expect(await read(r)).toEqual([
      { arrived: '/', path: '/hook', route: { kind: 'rewritten', by: 'query' }, state: 'verified', reason: undefined },
      {
        arrived: '/?conformance-url=2',
        path: '/hook?conformance-url=2',
        route: { kind: 'rewritten', by: 'query' },
        state: 'verified',
        reason: undefined,
      },
    ]);
    expect(r.arrivals[1]!.targetUri).toBe(`${publicUrl}?conformance-url=2`);
    expect(describeDelivery(r.arrivals[0]!)).toContain(
      `POST ${publicUrl} (arrived at /: the proxy in front rewrote it);`,
    );
    expect(r.rewriteNote()).toBe(
      `the proxy in front of the webhook receiver rewrites /hook… to /…: 2 deliveries sent to ${publicUrl} arrived so; each was read as sent to the URL the server was given (its query names which) and judged as such`,
    );
  });

  it('still fails a server that signs another URL than the one it sends to, or a URL it was not given', async () => {
    const publicUrl = 'https://hooks.example.com/hook';
    const r = await receiver({ publicUrl });
    r.useKey(publicKey);
    // Sent to the second URL (its query arrived), signed for the first.
    await deliver(r, r.url, '/?conformance-url=2');
    // Sent, and signed, to a URL never registered (the root), not to /hook.
    await deliver(r, 'https://hooks.example.com/', '/');
    const [wrong, unregistered] = await read(r);
    expect(wrong).toEqual({
      arrived: '/?conformance-url=2',
      path: '/hook?conformance-url=2',
      route: { kind: 'rewritten', by: 'query' },
      state: 'rejected',
      reason: `signature: it does not verify as sent to ${publicUrl}?conformance-url=2, where it arrived (at /?conformance-url=2, the proxy in front rewriting the path), but as sent to ${publicUrl}: the server signed another URL than the one it sent it to`,
    });
    expect(unregistered).toMatchObject({ state: 'rejected', path: '/hook' });
    expect(unregistered!.reason).toBe(
      `signature: it does not verify as sent to ${publicUrl}, the URL the run registered that its query names, but as sent to https://hooks.example.com/, where it arrived: the server sent it to a URL it was not given`,
    );
    expect(r.arrivals.map((d) => d.problems.map((p) => p.kind))).toEqual([['signature'], ['signature']]);
  });

  it('reads back the second URL through a proxy the run saw drop the query, by the signature', async () => {
    // A proxy that forwards the path and drops the query, in front of a receiver on a port chosen first.
    const port = await closedPort();
    const dropper: Server = createServer((req, res) => {
      const up = httpRequest(
        { host: '127.0.0.1', port, method: req.method, path: req.url!.split('?')[0], headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.writeHead(502).end());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const publicUrl = `http://127.0.0.1:${(dropper.address() as { port: number }).port}/hook`;
      const behind = await receiver({ publicUrl, listen: `127.0.0.1:${port}` });
      expect(await behind.probe()).toEqual({ kind: 'reached', url: behind.alternateUrl, arrived: '/hook' });
      behind.useKey(publicKey);
      await deliver(behind, behind.alternateUrl, '/hook');
      await deliver(behind, behind.url, '/hook');
      expect((await read(behind)).map(({ path, route, state }) => ({ path, route, state }))).toEqual([
        { path: '/hook?conformance-url=2', route: { kind: 'rewritten', by: 'signature' }, state: 'verified' },
        { path: '/hook', route: undefined, state: 'verified' },
      ]);
      expect(behind.rewriteNote()).toMatch(
        /^the proxy in front of the webhook receiver rewrites \/hook… to \/hook… and drops the query: 1 delivery sent to .* arrived so; each was read as sent to the URL the server was given \(its query, or else its signature, names which\) and judged as such$/,
      );
    } finally {
      dropper.close();
    }
  });

  it('leaves unmapped, as a set-up problem, what neither the query nor the signature can place', async () => {
    // No proxy answers at publicUrl: the run's own request cannot tell whether the query is dropped.
    const publicUrl = `https://127.0.0.1:${await closedPort()}/hook`;
    const r = await receiver({ publicUrl });
    r.useKey(publicKey);
    await deliver(r, r.alternateUrl, '/hook');
    const [d] = await read(r);
    expect(d).toMatchObject({ arrived: '/hook', path: '/hook', state: 'rejected' });
    expect(d!.route).toEqual({
      kind: 'unmapped',
      why: `its signature verifies as sent to ${r.alternateUrl}, not to ${publicUrl}, where it arrived: the proxy in front may drop the query (the run's own request through webhook.publicUrl did not come through to tell)`,
    });
    expect(r.diagnoseUnmapped(r.arrivals[0]!)).toEqual({
      problem: `a delivery reached the webhook receiver at /hook, not at a URL the run registered (${publicUrl}), and where it was sent cannot be read back: ${d!.route!.kind === 'unmapped' ? d!.route!.why : ''}`,
      fix: `make the proxy in front forward the path and query unchanged (nginx: \`proxy_pass http://${r.listening};\`, no path after the address), or set webhook.publicUrl to a URL the proxy forwards unchanged; see docs/webhook-receiver.md`,
    });

    // A query that names no registered URL, and a signature over no part of the URL: any of them, so none.
    const withQuery = await receiver({ publicUrl: 'https://hooks.example.com/hook?k=v' });
    withQuery.useKey(publicKey);
    await deliver(withQuery, withQuery.url, '/', ['content-digest', 'content-type']);
    await deliver(withQuery, withQuery.url, '/');
    const [blind, placed] = await read(withQuery);
    expect(blind!.route).toEqual({
      kind: 'unmapped',
      why: 'its query names none of the URLs the run registered, and its signature covers no part of the URL, so it verifies as sent to any of them',
    });
    expect(blind!.state).toBe('verified');
    expect(placed).toMatchObject({
      path: '/hook?k=v',
      route: { kind: 'rewritten', by: 'signature' },
      state: 'verified',
    });
  });

  it('answers the run’s own request through publicUrl without recording it, and tells where it arrived', async () => {
    const port = await closedPort();
    const r = await receiver({ listen: `127.0.0.1:${port}`, publicUrl: `http://127.0.0.1:${port}/conformance` });
    expect(await r.probe()).toEqual({
      kind: 'reached',
      url: `http://127.0.0.1:${port}/conformance?conformance-url=2`,
      arrived: '/conformance?conformance-url=2',
    });
    expect(r.counts).toMatchObject({ received: 0, stray: 0, tlsFailures: 0 });
    // Made once: the same answer, no second request.
    expect(await r.probe()).toBe(await r.probe());
    // Without a publicUrl there is nothing in front to ask.
    expect(await (await receiver({})).probe()).toBeUndefined();
  });

  it('counts plain HTTP arriving at its TLS port apart, with OpenSSL’s reason alone', async () => {
    const r = await receiver({ tls: 'self-signed' });
    const { port } = new URL(r.url);
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/' }, (res) =>
        res.resume(),
      );
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end('{}');
    });
    await expect.poll(() => r.counts.plainHttp, { timeout: WAIT_MS }).toBe(1);
    expect(r.counts.tlsFailures).toBe(1);
    expect(r.tlsError).toBe('http request');
    // A TLS client that refuses the certificate is a failure of another kind.
    await new Promise<void>((resolve) => {
      const req = httpsRequest({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/' }, (res) =>
        res.resume(),
      );
      req.on('error', () => resolve());
      req.end('{}');
    });
    await expect.poll(() => r.counts.tlsFailures, { timeout: WAIT_MS }).toBe(2);
    expect(r.counts.plainHttp).toBe(1);
    expect(r.tlsError).not.toMatch(/:error:|\n/);
  });
});

describe('why nothing reached the receiver, from what the run can observe', () => {
  const view = {
    url: 'https://hooks.example.com/in',
    listening: '127.0.0.1:8080',
    certificatePem: undefined,
    counts: { plainHttp: 0 },
  };
  const settings: WebhookConfig = { listen: '127.0.0.1:8080', publicUrl: 'https://hooks.example.com/in', tls: 'none' };
  const head =
    'nothing reached the webhook receiver at https://hooks.example.com/in: no delivery and no connection, not even for POST /webhooks/test (answered 200)';
  const ok = { status: 200, text: '{"data":{"status":"QUEUED"}}' };

  it('names both causes, with the check for each, when publicUrl works from this machine', () => {
    const probe = {
      kind: 'reached' as const,
      url: 'https://hooks.example.com/in?conformance-url=2',
      arrived: '/in?conformance-url=2',
      trust: {
        trusted: true,
        certificate: { subject: 'CN=hooks.example.com', issuer: 'CN=R11', fingerprint: 'AA:BB' },
      },
    };
    expect(unreachedDiagnosis(view, settings, ok, probe)).toEqual({
      problem: `${head}; from this machine webhook.publicUrl works: the proxy at hooks.example.com presents a certificate trusted here (issued by CN=R11) and forwards the run's own request`,
      fix: "either the server cannot reach hooks.example.com from where it runs (check its DNS, firewall and route to that host and port), or it does not trust the CA of the proxy's certificate (issued by CN=R11) (ask the provider which CAs its webhook client trusts); see docs/webhook-receiver.md",
    });
  });

  it("takes the server's own words when its answer to POST /webhooks/test gives the delivery error", () => {
    const refused = { kind: 'unreachable' as const, url: 'x', error: 'ECONNREFUSED' };
    const tls = {
      status: 502,
      text: '{"code":"502","message":"delivery failed: self-signed certificate in certificate chain"}',
    };
    expect(unreachedDiagnosis(view, settings, tls, refused)).toEqual({
      problem: `nothing reached the webhook receiver at https://hooks.example.com/in: no delivery and no connection (POST /webhooks/test answered 502, so no test delivery was due either); the server's answer to POST /webhooks/test says "${tls.text}"`,
      fix: 'give the proxy at hooks.example.com a certificate from a CA the server trusts, or hand its certificate to the provider to trust; see docs/webhook-receiver.md',
    });
    const network = { status: 200, text: '{"status":"FAILED","error":"connect ETIMEDOUT 10.0.0.5:443"}' };
    expect(unreachedDiagnosis(view, settings, network, refused).fix).toBe(
      'check the server can reach hooks.example.com from where it runs (its DNS, firewall and route to that host and port); see docs/webhook-receiver.md',
    );
  });
});
