// The signing vectors for SDK authors (conformance vectors): the committed file is what the generator writes, every
// vector verifies with our verifier at its verifyAt and its base and digest are ours byte for byte, and every negative
// case is refused with the code it names. SDK authors get the same file from `conformance vectors --out DIR`.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signingVectorsText, VECTORS_FILE_NAME } from '../../src/cli/vectors.js';
import { verifyContentDigest } from '../../src/http/digest.js';
import { profileComponents, verifySignature } from '../../src/http/signature.js';
import type { SigningVectors } from '../../src/vectors/signing-vectors.js';
import { runCli } from '../helpers/cli.js';

const FILE = new URL(`../fixtures/vectors/api/${VECTORS_FILE_NAME}`, import.meta.url);
const committed = readFileSync(FILE, 'utf8');
const doc = JSON.parse(committed) as SigningVectors;

const headerOf = (headers: Array<[string, string]>, name: string) =>
  headers.find(([n]) => n.toLowerCase() === name)?.[1];
const verify = (request: SigningVectors['vectors'][number]['request']) =>
  verifySignature(
    {
      method: request.method,
      url: request.url,
      headers: request.headers,
      signatureInput: headerOf(request.headers, 'signature-input'),
      signature: headerOf(request.headers, 'signature'),
    },
    {
      key: (keyId) => (keyId === doc.key.keyId ? doc.key.publicKeyPem : undefined),
      requiredComponents: profileComponents(request),
      now: doc.verifyAt,
      requireCreated: true,
      requireExpires: true,
      maxAgeSeconds: 300,
    },
  );

describe('signing vectors', () => {
  it('are committed as the generator writes them (regenerate: conformance vectors --out test/fixtures/vectors/api)', async () => {
    expect(await signingVectorsText()).toBe(committed);
    expect(doc.key.test).toBe(true);
  });

  for (const v of doc.vectors) {
    it(`${v.name}: verifies at verifyAt, with our base and digest`, () => {
      const request = {
        ...v.request,
        headers: [
          ...v.request.headers,
          ['Signature-Input', v.signatureInput] as [string, string],
          ['Signature', v.signature] as [string, string],
        ],
      };
      const verdict = verify(request);
      expect(verdict).toMatchObject({ ok: true, base: v.signatureBase });
      expect(verdict.components).toEqual(v.components);
      if (v.request.body !== undefined) {
        expect(v.contentDigest).toBe(headerOf(v.request.headers, 'content-digest'));
        expect(verifyContentDigest(v.contentDigest, Buffer.from(v.request.body, 'utf8')).ok).toBe(true);
      }
    });
  }

  it('keeps @path and @query as sent (RFC 9421 §2.2.6, §2.2.7: percent-encoded octets are not decoded, none added)', () => {
    const v = doc.vectors.find((x) => x.name === 'get-query-as-sent')!;
    expect(v.signatureBase).toContain(`"@query": ?customerId=1&symbol=O'Reilly\n`);
  });

  for (const n of doc.negative) {
    it(`${n.name}: refused with ${n.expect.code}`, () => {
      if (n.expect.code === 'DIGEST_MISMATCH') {
        // The signature still verifies (it covers the digest, not the body); the digest no longer matches the body.
        expect(verify(n.request).ok).toBe(true);
        expect(
          verifyContentDigest(headerOf(n.request.headers, 'content-digest'), Buffer.from(n.request.body!, 'utf8')).ok,
        ).toBe(false);
        return;
      }
      expect(verify(n.request)).toMatchObject({ ok: false, code: n.expect.code });
    });
  }

  it('are written by `conformance vectors --out DIR`, the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vectors-'));
    const r = await runCli(['vectors', '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${join(dir, VECTORS_FILE_NAME)}`);
    expect(readFileSync(join(dir, VECTORS_FILE_NAME), 'utf8')).toBe(committed);
  });
});
