// 5. signing: signatures per second for a typical request (a signed GET with the headers the client covers), with
// @noble/ed25519 and with node:crypto over the same signature base, the client's whole signRequest, and the share of a
// default run that the client's signing takes (signatures sent x time per signature / run time).
import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { rate, round } from './lib.mjs';
import { runInProcess } from './in-process-run.mjs';

const { signRequest, profileComponents } = await import('../dist/src/http/signature.js');
const { signatureBase, signatureParamsValue } = await import('../dist/src/http/signature-base.js');
const { generateEd25519 } = await import('../dist/src/http/keys.js');

export const name = 'signing';
// The issue asks for the rate and the share of a run, and sets no goal: `met` is null, and the figures are recorded.
export const goal = 'none set: signatures per second, and the share of a default run spent signing';

ed.hashes.sha512 ??= sha512;

export async function measure({ quick = false, runOptions = {} } = {}) {
  const ms = quick ? 300 : 1500;
  const key = generateEd25519();
  const message = {
    method: 'GET',
    url: 'http://127.0.0.1:41234/v1/accounts?customerId=1042',
    headers: [
      ['Authorization', `Bearer ${'t'.repeat(43)}`],
      ['X-Client-Id', 'conformance-local'],
    ],
  };
  const created = Math.floor(Date.now() / 1000);
  const components = profileComponents(message);
  const base = new TextEncoder().encode(
    signatureBase(
      message,
      components,
      signatureParamsValue(components, [
        ['keyid', 'bench-key'],
        ['created', created],
        ['expires', created + 300],
      ]),
    ),
  );
  const keyObject = createPrivateKey(key.privateKeyPem);
  const noble = rate(() => ed.sign(base, key.seed), { ms });
  const node = rate(() => cryptoSign(null, base, keyObject), { ms });
  const client = rate(() => signRequest(message, { keyId: 'bench-key', privateKey: key.seed }), { ms });

  const run = await runInProcess(runOptions);
  const signatures = run.sent.filter((e) => e.request.headers.some(([n]) => n.toLowerCase() === 'signature')).length;
  const signingMs = (signatures * client.usPerOp) / 1000;
  return {
    figures: {
      nobleSignPerSec: noble.opsPerSecond,
      nodeCryptoSignPerSec: node.opsPerSecond,
      nodeOverNoble: round(node.opsPerSecond / noble.opsPerSecond),
      clientSignRequestPerSec: client.opsPerSecond,
      clientUsPerSignature: client.usPerOp,
      signaturesInRun: signatures,
      runMs: round(run.runMs),
      signingMsInRun: round(signingMs),
      signingSharePercent: round((100 * signingMs) / run.runMs),
    },
    met: null,
    notes: [
      `signature base of a signed GET covering ${components.join(' ')}; clientSignRequest is src/http/signature.ts signRequest (base + Ed25519) as the client calls it`,
    ],
  };
}
