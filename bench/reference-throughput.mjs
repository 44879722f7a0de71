// Signed-request throughput of the reference server on loopback: requests/s for a signed GET /accounts, with p50/p99
// latency. The server runs in this process; the load runs in a worker thread that signs every request up front, so
// the figure is the server's (authentication with node:crypto included), not the load generator's.
// Usage: npm run bench:reference [-- --requests 20000 --concurrency 32]
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { cpus } from 'node:os';
import { execSync } from 'node:child_process';

if (isMainThread) {
  const { startReferenceServer } = await import('../dist/src/reference/server.js');
  const { generateEd25519 } = await import('../dist/src/http/keys.js');
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const requests = arg('requests', 20_000);
  const concurrency = arg('concurrency', 32);
  const key = generateEd25519();
  const client = { clientId: 'bench', clientSecret: 'bench-secret-0123456789', keyId: 'bench-key' };
  const server = await startReferenceServer({ clients: [{ ...client, publicKey: key.publicKey }], log: undefined });
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { baseUrl: server.baseUrl, client, privateKeyPem: key.privateKeyPem, requests, concurrency },
  });
  const result = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await server.close();
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // Not a git checkout: the commit stays 'unknown'.
  }
  const line = {
    measurement: 'reference-signed-get-accounts',
    ...result,
    goalRequestsPerSecond: 3000,
    cpus: cpus().length,
    node: process.version,
    commit,
  };
  console.log(JSON.stringify(line));
  console.log(
    `reference server, signed GET /accounts: ${result.requestsPerSecond} req/s (goal >= 3000), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
      `${result.requests} requests, concurrency ${result.concurrency}, ${result.errors} non-200`,
  );
} else {
  const { baseUrl, client, privateKeyPem, requests, concurrency } = workerData;
  const { SignedClient } = await import('../dist/src/http/client.js');
  const { parsePrivateKeyPem } = await import('../dist/src/http/keys.js');
  const { connect } = await import('node:net');
  const signer = new SignedClient({
    baseUrl,
    clientId: client.clientId,
    keyId: client.keyId,
    privateKey: parsePrivateKeyPem(privateKeyPem).seed,
  });
  const tokenRes = await signer.send({
    method: 'POST',
    path: '/oauth/token',
    form: { clientId: client.clientId, clientSecret: client.clientSecret },
    clientId: null,
  });
  const token = JSON.parse(tokenRes.text).data.token;
  // Signed up front: created/expires stay valid for 300 s, longer than the run.
  const prepared = Array.from({ length: requests }, () =>
    signer.prepare({ method: 'GET', path: '/accounts', query: { customerId: 1042 }, token }),
  );
  const url = new URL(baseUrl);
  // Raw keep-alive sockets with pre-built request bytes: a load generator this light leaves the second core to the
  // server, as wrk would, so the figure is not capped by undici's own per-request cost.
  const wire = prepared.map((req) => {
    const target = req.url.slice(url.origin.length);
    const head = [
      `GET ${target} HTTP/1.1`,
      `Host: ${url.host}`,
      ...req.headers.map(([n, v]) => `${n}: ${v}`),
      '',
      '',
    ].join('\r\n');
    return Buffer.from(head, 'latin1');
  });
  const latencies = new Float64Array(requests);
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => connectionLoop()));
  function connectionLoop() {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      socket.setNoDelay(true);
      let buffer = Buffer.alloc(0);
      let current = -1;
      let t0 = 0;
      const sendNext = () => {
        if (next >= requests) {
          socket.end();
          return resolve();
        }
        current = next++;
        t0 = performance.now();
        socket.write(wire[current]);
      };
      socket.on('connect', sendNext);
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        for (;;) {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buffer.subarray(0, end).toString('latin1');
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < end + 4 + length) return;
          if (!head.startsWith('HTTP/1.1 200')) errors++;
          buffer = buffer.subarray(end + 4 + length);
          latencies[current] = performance.now() - t0;
          sendNext();
        }
      });
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await signer.close();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2));
  parentPort.postMessage({
    requests,
    concurrency,
    seconds: Number(seconds.toFixed(2)),
    requestsPerSecond: Math.round(requests / seconds),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    errors,
  });
}
