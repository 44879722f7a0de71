// The floor a run's own cost is compared with: the same HTTP requests sent one after another with nothing around them
// (no checks, no recording, no reports), signed as the client signs.
//
// A recorded exchange is redacted (bearer tokens and signatures masked, the client secret too), so each request is
// rebuilt from the record and signed afresh: with the replaying client's key, fresh created/expires, and a token this
// replay obtained where the original carried Authorization. What is rebuilt is counted, so the output can say so.
// A request the run's server refused as unauthenticated (a negative check's) gets a broken signature, so the server
// refuses it again rather than acting on it: a tampered webhook creation must not register a webhook in the replay.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

const { SignedClient } = await import('../dist/src/http/client.js');

const REDACTED = '[redacted]';
/** Headers the client derives itself (from the token, the body, the signature): set by prepare(), never copied. */
const DERIVED = new Set([
  'authorization',
  'x-client-id',
  'x-idempotency-key',
  'content-type',
  'content-length',
  'content-digest',
  'signature',
  'signature-input',
  'host',
]);

/**
 * Turns recorded exchanges into request specs for SignedClient.prepare, addressed to `target`. Done before the clock
 * starts: reading a record is the harness's work, not a client's. `receiver` moves webhook registrations from the
 * run's receiver URL to the replay's, so the server delivers (TLS and all) in the replay as it did in the run.
 */
export function planReplay(exchanges, target, receiver) {
  const origin = new URL(target.baseUrl).origin;
  const notes = {
    replayed: 0,
    unsent: 0,
    resigned: 0,
    freshToken: 0,
    rebuiltBody: 0,
    redactedBody: 0,
    paddedBody: 0,
    movedReceiverUrl: 0,
    brokenSignature: 0,
  };
  const plan = [];
  for (const ex of exchanges) {
    // A request the client refused to send (credentials to a foreign origin) never reached the server.
    if (ex.error?.startsWith('refused to send credentials')) {
      notes.unsent++;
      continue;
    }
    const rec = ex.request;
    const u = new URL(rec.url);
    const url = `${origin}${u.pathname}${u.search}`;
    const header = (n) => rec.headers.find(([k]) => k.toLowerCase() === n)?.[1];
    const auth = header('authorization');
    const step = {
      method: rec.method,
      url,
      kind: u.pathname.endsWith('/oauth/token') ? 'token' : u.pathname.endsWith('/oauth/revoke') ? 'revoke' : 'other',
      useToken: auth !== undefined && auth.includes(REDACTED),
      spec: {
        method: rec.method,
        path: url,
        clientId: header('x-client-id') ?? null,
        idempotencyKey: header('x-idempotency-key') ?? null,
        headers: rec.headers.filter(([k]) => !DERIVED.has(k.toLowerCase())),
        sign: header('signature-input') !== undefined ? {} : false,
        token: null,
      },
    };
    if (auth !== undefined && !step.useToken) step.spec.headers.push(['Authorization', auth]);
    step.breakSignature = step.spec.sign !== false && ex.response?.status === 401;
    if (step.breakSignature) notes.brokenSignature++;
    if (step.useToken) notes.freshToken++;
    if (step.spec.sign) notes.resigned++;
    const contentType = header('content-type');
    if (rec.bodySize > 0) {
      let text = rec.bodyExcerpt ?? '';
      if (step.kind === 'token' && text.includes(REDACTED)) {
        text = new URLSearchParams({ clientId: target.clientId, clientSecret: target.clientSecret }).toString();
        notes.rebuiltBody++;
      } else if (text.includes(REDACTED)) notes.redactedBody++;
      if (receiver?.from && text.includes(receiver.from)) {
        text = text.replaceAll(receiver.from, receiver.to);
        notes.movedReceiverUrl++;
      }
      if (rec.bodyTruncated) {
        text = text.padEnd(rec.bodySize, ' ');
        notes.paddedBody++;
      }
      step.spec.body = text;
      if (contentType !== undefined) step.spec.contentType = contentType;
    } else if (contentType !== undefined) step.spec.headers.push(['Content-Type', contentType]);
    plan.push(step);
    notes.replayed++;
  }
  return { plan, notes };
}

/** Sends the plan sequentially to the target; returns the elapsed ms and the statuses seen. */
export async function replay(plan, target) {
  const signer = new SignedClient({
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    keyId: target.keyId,
    privateKey: target.privateKey,
  });
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const statuses = new Map();
  // The first token is the run's shared one; later ones are a check's own, which the check revokes, not the shared one.
  let shared;
  const own = [];
  try {
    const started = performance.now();
    for (const step of plan) {
      let token = null;
      if (step.kind === 'revoke' && step.useToken) token = own.pop() ?? shared;
      else if (step.useToken) token = shared;
      const req = signer.prepare({ ...step.spec, token });
      if (step.breakSignature) {
        const sig = req.headers.find(([n]) => n === 'Signature');
        sig[1] = sig[1].replace(/=:(.)/, (_, c) => `=:${c === 'A' ? 'B' : 'A'}`);
      }
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers.flat(),
        body: req.body ? Buffer.from(req.body) : null,
        dispatcher: agent,
      });
      const text = await res.body.text();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (step.kind === 'token' && res.statusCode === 200) {
        const issued = JSON.parse(text).data?.token;
        if (shared === undefined) shared = issued;
        else own.push(issued);
      }
    }
    return {
      replayMs: performance.now() - started,
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    };
  } finally {
    await agent.close();
    await signer.close();
  }
}
