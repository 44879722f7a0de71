// The webhook leg of `conformance proxy --receiver URL` (issue 30): a second listener, on loopback, in front of the
// client's own webhook receiver. The client registers this listener's address as its webhook URL; each delivery the
// server sends there is forwarded unchanged (./forward.ts: method, path and query, header fields in their order, Host
// as the server wrote it, body bytes) to the client's receiver, whose answer goes back to the server, and the delivery
// is recorded as a TrafficExchange whose URL is the one the server was given (the URL it signed). It knows no key and
// no check: verifying a delivery is the judges' (suites/webhooks/delivery.ts).
//
// HTTPS only, with a certificate for the loopback address signed by the proxy's CA: the spec's webhook URL is an
// https one (a server refuses an http URL: the fault webhooks.http-url-accepted), so a plain-HTTP listener would be an
// address no conforming server accepts; the server is given the proxy's CA to trust, as the client is.
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { ProxyListenError } from '../errors.js';
import type { TrafficExchange } from '../traffic/exchange.js';
import { leafFor, type ProxyCa } from './ca.js';
import { forward, type Forwarder } from './forward.js';

export interface ReceiverLeg {
  /** What the client registers as its webhook URL: this listener, with the path and query of the client's receiver. */
  url: string;
  /** The client's receiver, where deliveries go on to. */
  receiver: URL;
  /** TLS handshakes at the leg that failed (a server that does not trust the proxy's CA), and the last one's reason. */
  tlsFailures: { count: number; last?: string };
  close(): Promise<void>;
}

export interface ReceiverLegOptions {
  ca: ProxyCa;
  /** The client's own receiver URL (http or https). */
  receiver: URL;
  host: string;
  /** The forwarder's agents, body cap and numbering, shared with the proxy's traffic (one order of exchanges). */
  fw: Omit<Forwarder, 'record'>;
  /** A delivery forwarded and answered (or not reached: `error`), its URL the one the server sent it to. */
  record(delivery: TrafficExchange): void;
  /** A TLS handshake at the leg failed: why (OpenSSL's reason, e.g. "tlsv1 alert unknown ca"). */
  tlsFailed(reason: string): void;
  track(socket: Socket): void;
}

export async function startReceiverLeg(options: ReceiverLegOptions): Promise<ReceiverLeg> {
  const { receiver, host } = options;
  const leaf = await leafFor(options.ca, host.replace(/^\[(.*)\]$/, '$1'));
  let origin = '';
  const fw: Forwarder = {
    ...options.fw,
    // Forwarded to the client's receiver, recorded as sent to this listener: the URL the server signed.
    record: (exchange) => {
      const to = new URL(exchange.request.url);
      options.record({ ...exchange, request: { ...exchange.request, url: `${origin}${to.pathname}${to.search}` } });
    },
  };
  const server: Server = createServer({ ...leaf, ALPNProtocols: ['http/1.1'] }, (req, res) =>
    forward(fw, req, res, new URL(req.url ?? '/', receiver.origin), true),
  );
  server.on('connection', options.track);
  const tlsFailures: ReceiverLeg['tlsFailures'] = { count: 0 };
  server.on('tlsClientError', (err: Error & { reason?: string }) => {
    tlsFailures.count++;
    tlsFailures.last = err.reason ?? err.message.split('\n')[0]!;
    options.tlsFailed(tlsFailures.last);
  });
  const port = await new Promise<number>((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        new ProxyListenError(`proxy: the webhook receiver leg cannot listen on ${host} (${err.code ?? err.message})`),
      ),
    );
    server.listen(0, host.replace(/^\[(.*)\]$/, '$1'), () => {
      server.removeAllListeners('error');
      // After the bind, an error of one connection must not end the session.
      server.on('error', () => undefined);
      done((server.address() as { port: number }).port);
    });
  });
  origin = `https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${receiver.pathname}${receiver.search}`,
    receiver,
    tlsFailures,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
