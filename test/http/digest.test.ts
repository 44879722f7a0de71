// RFC 9530 Content-Digest: the sha-512 values of the RFC's vectors, made and checked by src/http/digest.ts.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  contentDigest,
  contentDigestWith,
  SECURE_DIGEST_ALGORITHMS,
  verifyContentDigest,
} from '../../src/http/digest.js';

const rfc9530 = JSON.parse(
  readFileSync(new URL('../fixtures/vectors/rfc9530-content-digest.json', import.meta.url), 'utf8'),
) as {
  bodies: Record<string, { hex: string }>;
  vectors: Array<{
    id: string;
    algorithm?: string;
    body?: string;
    value?: string;
    fieldValue?: string;
    members?: Array<{ algorithm: string; body: string }>;
  }>;
};
const bytes = (name: string) => new Uint8Array(Buffer.from(rfc9530.bodies[name]!.hex, 'hex'));

describe('contentDigest and verifyContentDigest against RFC 9530', () => {
  it("gives Appendix D's sha-512 value", () => {
    const d = rfc9530.vectors.find((v) => v.id === 'D-sha-512')!;
    expect(contentDigest(bytes(d.body!))).toBe(`sha-512=${d.value}`);
    expect(contentDigest(Buffer.from(bytes(d.body!)).toString('utf8'))).toBe(`sha-512=${d.value}`);
  });

  for (const v of rfc9530.vectors.filter((x) => x.fieldValue && x.members?.some((m) => m.algorithm === 'sha-512'))) {
    it(`accepts ${v.id} for its body and refuses it for another`, () => {
      const body = bytes(v.members!.find((m) => m.algorithm === 'sha-512')!.body);
      expect(verifyContentDigest(v.fieldValue, body)).toEqual({ ok: true, algorithms: ['sha-512'] });
      expect(verifyContentDigest(v.fieldValue, new Uint8Array([...body, 0x20]))).toEqual({
        ok: false,
        reason: 'Content-Digest sha-512 does not match the body',
      });
    });
  }

  it('refuses a field with no sha-512 member, and a sha-512 of the wrong length', () => {
    const b1 = rfc9530.vectors.find((v) => v.id === 'B.1')!;
    expect(verifyContentDigest(b1.fieldValue, bytes('hello-world'))).toEqual({
      ok: false,
      reason: 'Content-Digest has no sha-512 member',
    });
    expect(verifyContentDigest('sha-512=:AAAA:', bytes('hello-world'))).toEqual({
      ok: false,
      reason: 'Content-Digest sha-512 does not match the body',
    });
  });

  it("gives and accepts Appendix D's sha-256 value when a receiver accepts the secure algorithms, and refuses it for requests", () => {
    const d = rfc9530.vectors.find((v) => v.id === 'D-sha-256')!;
    const body = bytes(d.body!);
    expect(contentDigestWith(body, ['sha-256'])).toBe(`sha-256=${d.value}`);
    expect(verifyContentDigest(`sha-256=${d.value}`, body, { algorithms: SECURE_DIGEST_ALGORITHMS })).toEqual({
      ok: true,
      algorithms: ['sha-256'],
    });
    expect(
      verifyContentDigest(`sha-256=${d.value}`, new Uint8Array([...body, 0x20]), {
        algorithms: SECURE_DIGEST_ALGORITHMS,
      }),
    ).toEqual({ ok: false, reason: 'Content-Digest sha-256 does not match the body' });
    expect(verifyContentDigest(`sha-256=${d.value}`, body)).toEqual({
      ok: false,
      reason: 'Content-Digest has no sha-512 member',
    });
  });

  it('ignores the deprecated md5 member: alone it verifies nothing', () => {
    const d = rfc9530.vectors.find((v) => v.id === 'D-md5')!;
    expect(verifyContentDigest(`md5=${d.value}`, bytes(d.body!), { algorithms: SECURE_DIGEST_ALGORITHMS })).toEqual({
      ok: false,
      reason: 'Content-Digest has no sha-512 or sha-256 member',
    });
  });
});
