// The receiver verifies every delivery that is valid under RFC 9421 and RFC 9530, whatever the server chose where the
// spec is silent (REQ-AUTH-13, REQ-EVT-18): any label, several signatures, any parameters, any component order or
// set, a sha-256 or sha-512 digest, any window (none, or a long one). And it still discards, once, what truly fails,
// naming the rule each failure breaks: a wrong digest or another key (REQ-EVT-14), content-digest uncovered
// (REQ-EVT-19), a signature already expired when it arrived (REQ-AUTH-09).
import { describe, expect, it } from 'vitest';
import { COMPONENTS, publicKey, serverKey, stoppedAfterEach } from '../helpers/receiver-setup.js';
import { createPublicKey } from 'node:crypto';
import { Agent, request } from 'undici';
import { contentDigestWith, type DigestAlgorithm } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { nowSeconds, signRequest } from '../../src/http/signature.js';
import type { SignatureParam } from '../../src/http/signature-base.js';
import {
  describeDelivery,
  startReceiver,
  type ProblemKind,
  type WebhookReceiver,
} from '../../src/receiver/receiver.js';

const forger = generateEd25519();
const { running, agents } = stoppedAfterEach();

async function receiver(): Promise<WebhookReceiver> {
  const r = await startReceiver({ listen: '127.0.0.1:0', tls: 'self-signed' });
  running.push(r);
  r.useKey(publicKey);
  return r;
}

interface Sig {
  label?: string;
  seed?: Uint8Array;
  components?: string[];
  params?: SignatureParam[];
}

interface Variant {
  digest?: DigestAlgorithm[];
  /** A Content-Digest value as given, instead of a computed one. */
  digestField?: string;
  /** Digest computed over these bytes instead of the body. */
  digestOf?: string;
  sigs?: Sig[];
  extraHeaders?: Array<[string, string]>;
  /** The body, when not the default one (which names AUTH.CREATED at `type`). */
  body?: string;
}

/** Sends one delivery with the given digest and signatures (all of them in one Signature-Input and one Signature). */
async function deliver(r: WebhookReceiver, v: Variant = {}): Promise<void> {
  const body = v.body ?? JSON.stringify({ type: 'AUTH.CREATED', data: { tokenId: 't-1' } });
  const headers: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['content-length', String(Buffer.byteLength(body))],
    ['content-digest', v.digestField ?? contentDigestWith(v.digestOf ?? body, v.digest ?? ['sha-512'])],
    ...(v.extraHeaders ?? []),
  ];
  const created = nowSeconds();
  const signed = (v.sigs ?? [{}]).map((s) =>
    signRequest(
      { method: 'POST', url: r.url, headers },
      {
        keyId: 'k',
        privateKey: s.seed ?? serverKey.seed,
        label: s.label ?? 'sig1',
        components: s.components ?? COMPONENTS,
        params: s.params ?? [
          ['keyid', 'k'],
          ['created', created],
          ['expires', created + 300],
        ],
      },
    ),
  );
  if (signed.length > 0) {
    headers.push(
      ['signature-input', signed.map((s) => s.signatureInput).join(', ')],
      ['signature', signed.map((s) => s.signature).join(', ')],
    );
  }
  const agent = new Agent({ connect: { ca: r.certificatePem! } });
  agents.push(agent);
  const res = await request(r.url, { method: 'POST', headers: headers.flat(), body, dispatcher: agent });
  await res.body.dump();
}

async function only(r: WebhookReceiver) {
  await r.settled();
  expect(r.arrivals).toHaveLength(1);
  return r.arrivals[0]!;
}

describe('webhook receiver: every RFC 9421/9530 reading of a delivery verifies', () => {
  const now = nowSeconds();
  const verifies: Array<[string, Variant]> = [
    ['the label wh instead of sig1', { sigs: [{ label: 'wh' }] }],
    [
      'no expires (RFC 9421 makes it optional)',
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['created', now],
            ],
          },
        ],
      },
    ],
    ['neither created nor expires', { sigs: [{ params: [['keyid', 'k']] }] }],
    ['no keyid', { sigs: [{ params: [['created', now]] }] }],
    [
      'alg="ed25519", a nonce and a tag',
      {
        sigs: [
          {
            params: [
              ['created', now],
              ['keyid', 'k'],
              ['alg', 'ed25519'],
              ['nonce', 'n-1'],
              ['tag', 'webhook'],
            ],
          },
        ],
      },
    ],
    [
      'the parameters in another order',
      {
        sigs: [
          {
            params: [
              ['expires', now + 60],
              ['keyid', 'k'],
              ['created', now],
            ],
          },
        ],
      },
    ],
    [
      'the components in another order',
      { sigs: [{ components: ['content-type', 'content-digest', '@target-uri', '@method'] }] },
    ],
    [
      'another component set (@authority, @path, @scheme, @request-target)',
      { sigs: [{ components: ['@method', '@authority', '@path', '@scheme', '@request-target', 'content-digest'] }] },
    ],
    [
      'a covered extra header (x-event-id)',
      { extraHeaders: [['x-event-id', 'evt-9']], sigs: [{ components: [...COMPONENTS, 'x-event-id'] }] },
    ],
    ['a sha-256 Content-Digest', { digest: ['sha-256'] }],
    ['sha-256 and sha-512 members, both right', { digest: ['sha-256', 'sha-512'] }],
    ['two signatures, the first by another key', { sigs: [{ label: 'old', seed: forger.seed }, { label: 'new' }] }],
    [
      'two signatures, the first without content-digest',
      { sigs: [{ label: 'a', components: ['@method', '@target-uri'] }, { label: 'b' }] },
    ],
    [
      'a long window the sender chose (a day)',
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['created', now],
              ['expires', now + 86_400],
            ],
          },
        ],
      },
    ],
    [
      "created an hour ago and no expires (the window is the sender's)",
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['created', now - 3_600],
            ],
          },
        ],
      },
    ],
    [
      'expired 30 s ago, within the clock skew tolerated',
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['created', now - 330],
              ['expires', now - 30],
            ],
          },
        ],
      },
    ],
    [
      'a deprecated md5 member beside a right sha-512',
      {
        digestField: `md5=:AAAAAAAAAAAAAAAAAAAAAA==:, ${contentDigestWith(JSON.stringify({ type: 'AUTH.CREATED', data: { tokenId: 't-1' } }), ['sha-512'])}`,
      },
    ],
  ];
  for (const [name, variant] of verifies) {
    it(`verifies ${name}`, async () => {
      const r = await receiver();
      await deliver(r, variant);
      const d = await only(r);
      expect([d.state, d.reason, d.problems]).toEqual(['verified', undefined, []]);
      expect(d.signedBy).toBe('published-key');
    });
  }

  it('says which label verified and which digest members matched', async () => {
    const r = await receiver();
    await deliver(r, { digest: ['sha-256'], sigs: [{ label: 'old', seed: forger.seed }, { label: 'new' }] });
    const d = await only(r);
    expect(d.signature).toMatchObject({ ok: true, label: 'new' });
    expect(d.digest).toEqual({ ok: true, algorithms: ['sha-256'] });
  });

  it('verifies by the signature that holds every rule, when several verify under the published key', async () => {
    const r = await receiver();
    await deliver(r, {
      sigs: [
        {
          label: 'stale',
          params: [
            ['created', now - 900],
            ['expires', now - 600],
          ],
        },
        { label: 'fresh' },
      ],
    });
    const d = await only(r);
    expect([d.state, d.problems, d.signature?.label]).toEqual(['verified', [], 'fresh']);
  });

  it('names the event wherever the delivery carries it: a header alone, or a CloudEvents type', async () => {
    const r = await receiver();
    const body = JSON.stringify({ id: 'e-1', data: { tokenId: 't-1' } });
    await deliver(r, { body, extraHeaders: [['X-Event-Type', 'AUTH.DELETED']] });
    await deliver(r, { body, extraHeaders: [['ce-type', 'com.example.investment.webhook.updated']] });
    await r.settled();
    expect(r.arrivals.map((d) => [d.state, d.event.name, d.event.at, d.event.raw])).toEqual([
      ['verified', 'AUTH.DELETED', 'header x-event-type', 'AUTH.DELETED'],
      ['verified', 'WEBHOOK.UPDATED', 'header ce-type', 'com.example.investment.webhook.updated'],
    ]);
  });
});

describe('webhook receiver: a request that bundles several events (a batch)', () => {
  const batch = JSON.stringify({
    events: [
      { eventId: 'e-1', event: 'AUTH.CREATED', data: { tokenId: 't-1' } },
      { eventId: 'e-2', event: 'AUTH.DELETED', data: { tokenId: 't-1' } },
    ],
  });

  it('reads each event as a delivery of its own, sharing the request and its verification, and counts the request once', async () => {
    const r = await receiver();
    await deliver(r, { body: batch });
    await r.settled();
    expect(r.arrivals.map((d) => [d.seq, d.request, d.state, d.event.name, d.batch, d.payload])).toEqual([
      [
        1,
        1,
        'verified',
        'AUTH.CREATED',
        { index: 0, size: 2, at: 'payload.events' },
        { eventId: 'e-1', event: 'AUTH.CREATED', data: { tokenId: 't-1' } },
      ],
      [
        2,
        1,
        'verified',
        'AUTH.DELETED',
        { index: 1, size: 2, at: 'payload.events' },
        { eventId: 'e-2', event: 'AUTH.DELETED', data: { tokenId: 't-1' } },
      ],
    ]);
    expect(r.counts).toMatchObject({ received: 1, verified: 1, events: 2 });
    // A wait for the second event of the batch ends with it.
    expect((await r.waitFor((d) => d.event.name === 'AUTH.DELETED', 10))?.seq).toBe(2);
    expect(describeDelivery(r.arrivals[1]!)).toContain(
      '; event 2 of 2 of a batch at payload.events: {"eventId":"e-2","event":"AUTH.DELETED","data":{"tokenId":"t-1"}} — verified',
    );
  });

  it('discards every event of a batch that fails verification, and counts the request once', async () => {
    const r = await receiver();
    await deliver(r, { body: batch, digestOf: 'tampered' });
    await r.settled();
    expect(r.arrivals.map((d) => [d.state, d.problems.map((p) => p.kind)])).toEqual([
      ['rejected', ['digest']],
      ['rejected', ['digest']],
    ]);
    expect(r.counts).toMatchObject({ received: 1, rejected: 1, events: 2 });
  });
});

describe('webhook receiver: a delivery that truly fails is discarded, and counted once', () => {
  const now = nowSeconds();
  const rejects: Array<[string, Variant, RegExp, string, ProblemKind[]]> = [
    [
      'a sha-256 digest of other bytes',
      { digest: ['sha-256'], digestOf: 'tampered' },
      /^Content-Digest sha-256 does not match the body$/,
      'published-key',
      ['digest'],
    ],
    [
      'a right sha-256 beside a wrong sha-512',
      {
        digestField: `${contentDigestWith(JSON.stringify({ type: 'AUTH.CREATED', data: { tokenId: 't-1' } }), ['sha-256'])}, ${contentDigestWith('x', ['sha-512'])}`,
      },
      /^Content-Digest sha-512 does not match/,
      'published-key',
      ['digest'],
    ],
    [
      'only a deprecated md5 member',
      { digestField: 'md5=:AAAAAAAAAAAAAAAAAAAAAA==:' },
      /^Content-Digest has no sha-512 or sha-256 member$/,
      'published-key',
      ['digest'],
    ],
    [
      'every signature by another key',
      {
        sigs: [
          { label: 'a', seed: forger.seed },
          { label: 'b', seed: forger.seed },
        ],
      },
      /^signature: the signature does not verify against the signature base$/,
      'other-key',
      ['signature'],
    ],
    [
      'an alg other than ed25519',
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['alg', 'rsa-pss-sha512'],
            ],
          },
        ],
      },
      /^signature: alg "rsa-pss-sha512" is not ed25519$/,
      'unsigned',
      ['signature'],
    ],
    ['no signature at all', { sigs: [] }, /^signature: no Signature-Input header$/, 'unsigned', ['signature']],
    [
      'a signature that leaves content-digest out',
      { sigs: [{ components: ['@method', '@target-uri'] }] },
      /^signature: the signature does not cover "content-digest"$/,
      'published-key',
      ['coverage'],
    ],
    [
      'a signature that had expired 5 minutes before it arrived',
      {
        sigs: [
          {
            params: [
              ['keyid', 'k'],
              ['created', now - 600],
              ['expires', now - 300],
            ],
          },
        ],
      },
      /^signature: expired at \d+ \(now \d+\)$/,
      'published-key',
      ['window'],
    ],
    [
      'a signature created 15 minutes in the future',
      { sigs: [{ params: [['created', now + 900]] }] },
      /^signature: created \(\d+\) is in the future \(now \d+\)$/,
      'published-key',
      ['window'],
    ],
    [
      'a digest of other bytes under an expired signature that leaves it out: every rule named',
      {
        digestOf: 'tampered',
        sigs: [
          {
            components: ['@method', '@target-uri'],
            params: [
              ['created', now - 600],
              ['expires', now - 300],
            ],
          },
        ],
      },
      /^Content-Digest sha-512 does not match the body; signature: the signature does not cover "content-digest"; signature: expired at/,
      'published-key',
      ['digest', 'coverage', 'window'],
    ],
  ];
  for (const [name, variant, reason, signedBy, kinds] of rejects) {
    it(`discards ${name}`, async () => {
      const r = await receiver();
      await deliver(r, variant);
      const d = await only(r);
      expect(d.state).toBe('rejected');
      expect(d.reason).toMatch(reason);
      expect(d.problems.map((p) => p.kind)).toEqual(kinds);
      expect(d.signedBy).toBe(signedBy);
      expect(r.counts).toMatchObject({ received: 1, verified: 0, rejected: 1 });
    });
  }

  it('stays discarded, counted once, when another key is published and it still does not verify', async () => {
    const r = await receiver();
    await deliver(r, { sigs: [{ seed: forger.seed }] });
    await r.settled();
    expect(r.useKey(createPublicKey(generateEd25519().publicKeyPem))).toBe(true);
    await r.settled();
    expect(r.counts).toMatchObject({ received: 1, verified: 0, rejected: 1 });
    expect(r.arrivals[0]!.reason).toBe('signature: the signature does not verify against the signature base');
  });
});
