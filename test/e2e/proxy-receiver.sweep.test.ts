// `conformance proxy --receiver URL` against a server with each delivery fault (a sweep: `npm run test:sweeps`): the
// delivery goes through the proxy's receiver leg to a receiver of this test that answers 200; on SIGINT the session is
// judged, and the checks owning what the fault breaks fail citing the delivery as sent, the 2xx of the client's
// receiver to it recorded. The leg itself is proxy-receiver.test.ts's.
import { describe, expect, it } from 'vitest';
import { receiverLeg } from '../helpers/receiver-leg.js';

const { caOut, clientReceiver, serverAndConfig, startProxy, registerThroughProxy, report } =
  receiverLeg('proxy-receiver-faults');

describe('conformance proxy --receiver, from a server with a delivery fault', () => {
  const verified = 'webhooks.delivery.verified';
  // The client's receiver answered 200 to each: its side's failure (SHOULD), judged under --side both, the default here.
  const refuses = 'client.webhooks.refuses-forged';
  it.each([
    {
      fault: 'webhooks.digest-mismatch',
      owners: [
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify: #\d+ POST \/hooks\/investments: Content-Digest sha-\d+ does not match the body/,
    },
    {
      // Which key signed is webhooks.key.published's too, as in a run (docs/detection-matrix.md).
      fault: 'webhooks.wrong-signing-key',
      owners: [
        ['webhooks.key.published', 'fail'],
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify under the published key: #\d+ POST \/hooks\/investments: signature: the signature does not verify/,
    },
    {
      fault: 'webhooks.unsigned-delivery',
      owners: [
        [verified, 'fail'],
        [refuses, 'warn'],
      ],
      why: /do not verify: #\d+ POST \/hooks\/investments: signature: /,
    },
    {
      fault: 'webhooks.digest-not-covered',
      owners: [['webhooks.delivery.digest-covered', 'warn']],
      why: /does not cover content-digest \(#\d+ POST \/hooks\/investments covering/,
    },
    {
      fault: 'webhooks.expired-signature',
      owners: [['webhooks.delivery.in-window', 'warn']],
      why: /outside their signature's window: #\d+ POST \/hooks\/investments: signature: expired at/,
    },
  ])('from a server with fault $fault: the owning checks fail citing the delivery', async ({ fault, owners, why }) => {
    const { local, config } = await serverAndConfig(fault, [fault]);
    const receiver = await clientReceiver();
    try {
      const proxy = await startProxy([
        ...['--target', 'staging', '--config', config, '--ca-out', caOut()],
        ...['--receiver', receiver.url, '--json', `${fault}.json`, '--fail-on', 'should'],
      ]);
      await registerThroughProxy(local, proxy.url, proxy.webhookUrl!);
      await receiver.arrived();
      await proxy.printed(/^ {2}#\d+ delivery POST /m);
      const { code } = await proxy.end();
      expect(code).toBe(1);
      const r = report(`${fault}.json`);
      const failed = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error');
      expect(failed.map((c) => [c.id, c.outcome])).toEqual(owners);
      expect(failed[0]!.finding?.message).toMatch(why);
      // The delivery is cited as sent: to the proxy's receiver address, the URL the server signed.
      for (const check of failed)
        expect(check.exchanges.map((e) => [e.checkId, e.request.method, e.request.url])).toContainEqual([
          'observed',
          'POST',
          proxy.webhookUrl,
        ]);
      // The client's receiver answered 200 to a delivery that does not verify: recorded (its side is not judged yet).
      const check = failed.find((c) => c.id === verified);
      if (check !== undefined)
        expect(check.observations?.join('\n')).toMatch(
          /the client's receiver answered 2xx to a delivery that does not verify \(#\d+ POST \/hooks\/investments → 200\).*client\.webhooks\.refuses-forged/,
        );
    } finally {
      await receiver.close();
    }
  });
});
