// `conformance judge` on the HAR of a webhooks run (issue 30): the run's --har carries each delivery its receiver got
// (marked `_delivery`, with the receiver's answer), and judging it fails the check the run failed for a delivery fault,
// and only that one (webhooks.wrong-signing-key: key.published and delivery.verified; webhooks.digest-not-covered:
// delivery.digest-covered); a clean run's HAR judges clean. A HAR whose Signatures are masked: their signatures are
// not judged (neither passed nor failed), while digest, coverage and window, which stay readable, are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/api.js';
import { judge } from '../../src/judge-api.js';
import type { CheckResult, RunResult } from '../../src/engine/index.js';
import { Redactor } from '../../src/http/redact.js';

const quiet = { onNote: () => undefined };
const DELIVERY_CHECKS = [
  'webhooks.key.published',
  'webhooks.delivery.verified',
  'webhooks.delivery.digest-covered',
  'webhooks.delivery.in-window',
];

interface HarFile {
  log: {
    entries: Array<
      Record<string, unknown> & {
        request: {
          method: string;
          url: string;
          headers: Array<{ name: string; value: string }>;
          postData?: { text: string };
        };
      }
    >;
  };
}

let dir: string;
const runs: Record<string, { har: string; result: RunResult }> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-judge-deliveries-'));
  for (const fault of ['clean', 'webhooks.wrong-signing-key', 'webhooks.digest-not-covered']) {
    const har = join(dir, `${fault}.har`);
    const result = await run({
      suites: ['webhooks'],
      har,
      local: { faults: fault === 'clean' ? [] : [fault] },
      ...quiet,
    });
    runs[fault] = { har, result };
  }
  // A server making a new key at each configuration (an open point's other reading).
  const har = join(dir, 'every-configuration.har');
  const result = await run({
    suites: ['webhooks'],
    har,
    local: { choices: { webhookKeyRotation: 'every-configuration' } },
    ...quiet,
  });
  runs['every-configuration'] = { har, result };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const failed = (r: RunResult) =>
  r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => [c.id, c.outcome]);
const check = (r: RunResult, id: string): CheckResult => r.checks.find((c) => c.id === id)!;
const readHarFile = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as HarFile;
const delivered = (har: HarFile) => har.log.entries.filter((e) => '_delivery' in e);

/** The HAR with every delivery's Signature masked as the reports mask a request's, and `edit` applied to each. */
async function masked(from: string, name: string, edit: (e: HarFile['log']['entries'][0]) => void = () => undefined) {
  const har = await readHarFile(from);
  const redactor = new Redactor();
  for (const e of delivered(har)) {
    for (const h of e.request.headers) h.value = redactor.header(h.name, h.value);
    edit(e);
  }
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(har));
  return file;
}

describe('conformance judge on the HAR of a webhooks run', () => {
  it('holds each delivery the receiver got, marked, with the Signature as sent and the answer of the receiver', async () => {
    const { har, result } = runs.clean!;
    const entries = delivered(await readHarFile(har));
    expect(entries.length).toBe(result.deliveries!.length);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e._delivery)).toEqual(entries.map((_, i) => i + 1));
    for (const e of entries) {
      expect(new URL(e.request.url).pathname).toBe('/conformance/webhook');
      expect(e.request.headers.find((h) => h.name.toLowerCase() === 'signature')?.value).toMatch(
        /^[a-z0-9]+=:[A-Za-z0-9+/]{86}==:$/,
      );
      expect(e).toMatchObject({ response: { status: 200, content: { text: 'ok' } } });
      expect(e).not.toHaveProperty('_checkId');
    }
  });

  it('finds nothing in a clean run’s HAR, and judges every delivery', async () => {
    const notes: string[] = [];
    const result = await judge({ file: runs.clean!.har, onNote: (l) => notes.push(l) });
    expect(failed(result)).toEqual([]);
    const n = runs.clean!.result.deliveries!.length;
    expect(result.run.notes?.[0]).toContain(`and ${n} webhook deliver(ies) of`);
    for (const id of DELIVERY_CHECKS) expect([id, check(result, id).outcome]).toEqual([id, 'pass']);
    expect(check(result, 'webhooks.delivery.verified').observations).toContain(
      `${n} deliveries carry a matching digest and a signature by the published key`,
    );
  });

  it('webhooks.wrong-signing-key: fails what the run failed, key.published and delivery.verified, citing the delivery', async () => {
    const { har, result: ran } = runs['webhooks.wrong-signing-key']!;
    const result = await judge({ file: har, ...quiet });
    expect(failed(ran)).toEqual([
      ['webhooks.key.published', 'fail'],
      ['webhooks.delivery.verified', 'fail'],
    ]);
    expect(failed(result)).toEqual(failed(ran));
    const verified = check(result, 'webhooks.delivery.verified');
    expect(verified.finding?.message).toMatch(
      /^(\d+) of \1 deliveries do not verify: #\d+ POST \/conformance\/webhook: signature: the signature does not verify against the signature base/,
    );
    expect(verified.exchanges[0]).toMatchObject({ checkId: 'observed', request: { method: 'POST' } });
    expect(check(result, 'webhooks.key.published').finding?.message).toMatch(
      /deliveries do not verify under the published key: #\d+ POST \/conformance\/webhook/,
    );
    for (const id of ['webhooks.delivery.digest-covered', 'webhooks.delivery.in-window'])
      expect(check(result, id).skipReason).toMatch(/carries a signature by the published key that verifies/);
    // The run's own receiver answered them 200 before verifying: no word of a client's receiver answering 2xx.
    expect(verified.observations.join('\n')).not.toMatch(/receiver answered/);
  });

  it('webhooks.digest-not-covered: warns on delivery.digest-covered alone, as the run does', async () => {
    const { har, result: ran } = runs['webhooks.digest-not-covered']!;
    const result = await judge({ file: har, ...quiet });
    expect(failed(ran)).toEqual([['webhooks.delivery.digest-covered', 'warn']]);
    expect(failed(result)).toEqual(failed(ran));
    expect(check(result, 'webhooks.delivery.digest-covered').finding?.message).toMatch(
      /^(\d+) of \1 signed deliveries have a signature that does not cover content-digest \(#\d+ POST \/conformance\/webhook covering \["@method","@target-uri",/,
    );
  });

  it('with the Signatures masked: their signatures not judged, never passed nor failed; digest, coverage and window judged', async () => {
    const n = runs.clean!.result.deliveries!.length;
    const notJudged = `the Signature of ${n} of ${n} deliveries is masked in the traffic ([redacted]), so whether it verifies is not judged (their digests are)`;
    // Another key signed them: masked, nothing shows it.
    const wrongKey = await judge({
      file: await masked(runs['webhooks.wrong-signing-key']!.har, 'wrong-key.har'),
      ...quiet,
    });
    expect(failed(wrongKey)).toEqual([]);
    expect(check(wrongKey, 'webhooks.delivery.verified')).toMatchObject({ outcome: 'skip', skipReason: notJudged });
    // Coverage and the window are read from Signature-Input.
    const uncovered = await judge({
      file: await masked(runs['webhooks.digest-not-covered']!.har, 'uncovered.har'),
      ...quiet,
    });
    expect(failed(uncovered)).toEqual([['webhooks.delivery.digest-covered', 'warn']]);
    expect(check(uncovered, 'webhooks.delivery.in-window').outcome).toBe('pass');
    // A body that is not the one its Content-Digest names fails on the digest, the signature still not judged.
    const tampered = await judge({
      file: await masked(runs.clean!.har, 'tampered.har', (e) => {
        if (e._delivery === 1) e.request.postData!.text = e.request.postData!.text.replace('{', '{ ');
      }),
      ...quiet,
    });
    expect(failed(tampered)).toEqual([['webhooks.delivery.verified', 'fail']]);
    expect(check(tampered, 'webhooks.delivery.verified').finding?.message).toMatch(
      new RegExp(
        `^1 of ${n} deliveries do not verify: #\\d+ POST /conformance/webhook: Content-Digest sha-512 does not match the body$`,
      ),
    );
  });

  describe('a delivery after a configuration whose key the traffic never read', () => {
    type Entry = HarFile['log']['entries'][0];
    const time = (e: Entry) => Date.parse(e.startedDateTime as string);
    const pathOf = (e: Entry) => new URL(e.request.url).pathname;
    /** What is appended to the run's HAR, a second apart: configurations and key reads (by the run's client or another). */
    type Step = 'put' | 'read' | 'put by another client' | 'read by another client';
    /**
     * The run's HAR, then copies of its last 2xx PUT /webhooks and GET /webhooks/key as `steps` says, and a copy of its
     * last delivery whose signature verifies under no key the HAR holds (or, `unsigned`, that carries none).
     */
    async function afterAChange(from: string, name: string, steps: Step[], unsigned = false): Promise<string> {
      const har = await readHarFile(from);
      const entries = har.log.entries;
      const end = Math.max(...entries.map(time));
      const last = (which: (e: Entry) => boolean) => structuredClone(entries.filter(which).at(-1)!);
      const put = () => last((e) => e.request.method === 'PUT' && pathOf(e) === '/v1/webhooks');
      const read = () => last((e) => e.request.method === 'GET' && pathOf(e) === '/v1/webhooks/key');
      const byAnother = (e: Entry) => {
        for (const h of e.request.headers) if (h.name.toLowerCase() === 'x-client-id') h.value = 'another-client';
        return e;
      };
      const made: Record<Step, () => Entry> = {
        put,
        read,
        'put by another client': () => byAnother(put()),
        'read by another client': () => byAnother(read()),
      };
      const delivery = last((e) => '_delivery' in e);
      const headers = delivery.request.headers;
      if (unsigned) delivery.request.headers = headers.filter((h) => !/^signature(-input)?$/i.test(h.name));
      else {
        // Another key's signature: the same length, other bytes.
        const signature = headers.find((h) => h.name.toLowerCase() === 'signature')!;
        signature.value = signature.value.replace(/:([A-Za-z0-9+/])/, (_, c: string) => `:${c === 'A' ? 'B' : 'A'}`);
      }
      const added = [...steps.map((step) => made[step]()), delivery];
      let seq = Math.max(...entries.map((e) => Number(e._seq ?? 0)));
      added.forEach((e, i) => {
        e.startedDateTime = new Date(end + 1000 * (i + 1)).toISOString();
        if ('_seq' in e) e._seq = ++seq;
      });
      delivery._delivery = delivered(har).length + 1;
      entries.push(...added);
      const file = join(dir, name);
      await writeFile(file, JSON.stringify(har));
      return file;
    }

    it('a server that makes a new key at each configuration: its signature not judged, the others are', async () => {
      const { har, result: ran } = runs['every-configuration']!;
      expect(failed(ran)).toEqual([]);
      const result = await judge({ file: await afterAChange(har, 'unread.har', ['put']), ...quiet });
      expect(failed(result)).toEqual([]);
      const n = ran.deliveries!.length;
      const verified = check(result, 'webhooks.delivery.verified');
      expect(verified.outcome).toBe('pass');
      expect(verified.observations).toContain(
        `${n} deliveries carry a matching digest and a signature by the published key`,
      );
      const said = new RegExp(
        `^the signature of 1 of ${n + 1} deliveries verifies under no key the traffic holds, and they arrived after #\\d+ PUT /webhooks with no GET /webhooks/key answered after it`,
      );
      expect(verified.observations.some((o) => said.test(o))).toBe(true);
      expect(check(result, 'webhooks.key.published').observations.some((o) => said.test(o))).toBe(true);
    });

    it('fails it where the key was read after that configuration', async () => {
      const { har } = runs['every-configuration']!;
      const result = await judge({ file: await afterAChange(har, 'read.har', ['put', 'read']), ...quiet });
      expect(failed(result)).toEqual([
        ['webhooks.key.published', 'fail'],
        ['webhooks.delivery.verified', 'fail'],
      ]);
    });

    it('not judged either where another client configured and read its key since: a delivery names no client', async () => {
      const { har } = runs['every-configuration']!;
      const steps: Step[] = ['put', 'put by another client', 'read by another client'];
      const result = await judge({ file: await afterAChange(har, 'two-clients.har', steps), ...quiet });
      expect(failed(result)).toEqual([]);
      expect(check(result, 'webhooks.delivery.verified').observations.join('\n')).toMatch(
        /^the signature of 1 of \d+ deliveries verifies under no key the traffic holds/m,
      );
    });

    it('fails one that carries no signature: no key, read or not, would verify it', async () => {
      const { har } = runs['every-configuration']!;
      const result = await judge({ file: await afterAChange(har, 'unsigned.har', ['put'], true), ...quiet });
      expect(failed(result)).toEqual([['webhooks.delivery.verified', 'fail']]);
      expect(check(result, 'webhooks.delivery.verified').observations.join('\n')).not.toMatch(
        /no key the traffic holds/,
      );
    });

    it('fails it where the traffic shows the server keeping its key across configurations', async () => {
      const result = await judge({ file: await afterAChange(runs.clean!.har, 'kept.har', ['put']), ...quiet });
      expect(failed(result)).toEqual([
        ['webhooks.key.published', 'fail'],
        ['webhooks.delivery.verified', 'fail'],
      ]);
      expect(check(result, 'webhooks.delivery.verified').finding?.message).toMatch(
        /^1 of \d+ deliveries do not verify: #\d+ POST \/conformance\/webhook: signature: the signature does not verify against the signature base$/,
      );
    });
  });
});
