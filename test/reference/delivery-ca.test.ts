// The reference server's deliverer asks for its extra CA at its first delivery, not when it starts: the built-in
// target's receiver certificate (half a second of a worker's CPU) is made only for a run that draws a delivery.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deliverer, type DeliveryAttempt } from '../../src/reference/webhooks/delivery.js';
import { makeCertificate, type TlsMaterial } from '../../src/receiver/certificate.js';
import { WAIT_MS } from '../helpers/waits.js';

let material: TlsMaterial;
let url: string;
let received = 0;
const server = createServer((req, res) => {
  req.resume().on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  material = await makeCertificate(['127.0.0.1']);
  server.setSecureContext({ cert: material.cert, key: material.key });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A deliverer whose CA comes from a function that counts its calls. */
function deliverer(): { d: Deliverer; asked: () => number; attempts: DeliveryAttempt[] } {
  let asked = 0;
  const attempts: DeliveryAttempt[] = [];
  const d = new Deliverer({
    ca: async () => {
      asked++;
      return material.cert;
    },
    retries: 0,
    backoffMs: 10,
    timeoutMs: WAIT_MS,
    maxPending: 10,
    onAttempt: (a) => attempts.push(a),
  });
  return { d, asked: () => asked, attempts };
}

function job(eventId: string) {
  return {
    clientId: 'c',
    eventId,
    event: 'AUTH.CREATED',
    url,
    prepare: () => ({
      url,
      body: Buffer.from('{}'),
      headers: [['content-type', 'application/json']] as [string, string][],
    }),
  };
}

describe('the deliverer’s extra CA', () => {
  it('is never asked for by a server that delivers nothing', async () => {
    const { d, asked } = deliverer();
    await d.close();
    expect(asked()).toBe(0);
  });

  it('is asked for once, at the first delivery, and trusted for every delivery after', async () => {
    const { d, asked, attempts } = deliverer();
    expect(asked()).toBe(0);
    const before = received;
    d.enqueue(job('e1'));
    d.enqueue(job('e2'));
    await d.idle();
    await d.close();
    expect(attempts.map((a) => [a.eventId, a.outcome, a.status])).toEqual([
      ['e1', 'delivered', 204],
      ['e2', 'delivered', 204],
    ]);
    expect(received - before).toBe(2);
    expect(asked()).toBe(1);
  });

  it('that cannot be had fails the delivery with the reason, and the deliverer still closes', async () => {
    const d = new Deliverer({
      ca: () => Promise.reject(new Error('no certificate today')),
      retries: 0,
      backoffMs: 10,
      timeoutMs: WAIT_MS,
      maxPending: 10,
      onAttempt: (a) => attempts.push(a),
    });
    const attempts: DeliveryAttempt[] = [];
    d.enqueue(job('e3'));
    await d.idle();
    await d.close();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ eventId: 'e3', outcome: 'failed' });
    expect(attempts[0]!.error).toMatch(/no certificate today/);
  });
});
