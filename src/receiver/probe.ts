// The run's own request through webhook.publicUrl: what a tunnel or reverse proxy in front of the receiver does with a
// request, seen from this machine. It is evidence for the set-up problems of a receiver behind a proxy (issue 26), never
// a delivery: it carries a token the receiver knows, and the receiver answers it without recording it. It tells
// - whether the public URL answers at all from here (a refused connection, a name that does not resolve, a timeout);
// - which certificate the proxy presents and whether Node's CA store trusts it (the handshake is never aborted, so the
//   proxy still forwards the request and the receiver counts no failed handshake of the run's own);
// - whether the proxy forwards to the receiver, and to which path and query (a prefix rewritten to the root, a query
//   dropped), or answers on its own (a 502 when it cannot reach the receiver).
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';

/** The header that marks the run's own request; its value is a token of the receiver's. */
export const PROBE_HEADER = 'x-conformance-probe';
/** Far above a proxy's answer on a working path; short enough that a black hole does not hold the run. */
const PROBE_TIMEOUT_MS = 3_000;

interface ProbeCertificate {
  subject: string;
  issuer: string;
  /** SHA-256, `AA:BB:…`. */
  fingerprint: string;
}

/** What the TLS handshake with the public URL showed, checked against Node's CA store (this machine's trust). */
interface ProbeTrust {
  trusted: boolean;
  /** Why it is not trusted, as OpenSSL or Node names it, e.g. DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID. */
  error?: string;
  certificate?: ProbeCertificate;
}

export type ProbeResult =
  /** The request came through to the receiver, at `arrived` (path and query as the receiver got them). */
  | { kind: 'reached'; url: string; arrived: string; trust?: ProbeTrust }
  /** Something answered, but the request never reached the receiver: the proxy's own answer. */
  | { kind: 'answered'; url: string; status: number; server?: string; location?: string; trust?: ProbeTrust }
  /** No answer: the connection was refused, the name did not resolve, TLS failed, or nothing came in time. */
  | { kind: 'unreachable'; url: string; error: string };

/**
 * POSTs `{}` to `url` with the probe header, and reads from `arrival` where the receiver got it (undefined when it did
 * not). Never rejects; bounded by `timeoutMs` as a whole.
 */
export function probePublicUrl(
  url: string,
  token: string,
  arrival: () => string | undefined,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let trust: ProbeTrust | undefined;
    let done = false;
    let req: ClientRequest | undefined;
    const finish = (result: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ kind: 'unreachable', url, error: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ kind: 'unreachable', url, error: 'not a URL' });
    }
    const https = target.protocol === 'https:';
    const options = {
      method: 'POST',
      headers: { [PROBE_HEADER]: token, 'content-type': 'application/json', 'content-length': '2' },
      agent: false as const,
      // Never abort the handshake: trust is read from the socket, and the proxy goes on to forward the request.
      rejectUnauthorized: false,
    };
    req = (https ? httpsRequest : httpRequest)(target, options, (res) => {
      res.resume();
      res.on('error', () => undefined);
      res.on('end', () => {
        const arrived = arrival();
        finish(
          arrived !== undefined
            ? { kind: 'reached', url, arrived, ...(trust ? { trust } : {}) }
            : {
                kind: 'answered',
                url,
                status: res.statusCode ?? 0,
                ...(typeof res.headers.server === 'string' ? { server: res.headers.server } : {}),
                ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
                ...(trust ? { trust } : {}),
              },
        );
      });
    });
    req.on('socket', (socket) => {
      if (!https) return;
      socket.once('secureConnect', () => {
        trust = trustOf(socket as TLSSocket);
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({ kind: 'unreachable', url, error: e.code ?? e.message.split('\n')[0] ?? 'error' }),
    );
    req.end('{}');
  });
}

/** What the handshake showed of the certificate the URL presents: trusted or why not, and whose it is. */
function trustOf(tls: TLSSocket): ProbeTrust {
  const peer = tls.getPeerCertificate();
  const name = (n: Record<string, unknown> | undefined) =>
    n === undefined ? '' : typeof n.CN === 'string' ? `CN=${n.CN}` : JSON.stringify(n);
  return {
    trusted: tls.authorized,
    ...(tls.authorized ? {} : { error: String(tls.authorizationError ?? 'not trusted') }),
    ...(peer && peer.fingerprint256
      ? {
          certificate: {
            subject: name(peer.subject as unknown as Record<string, unknown>),
            issuer: name(peer.issuer as unknown as Record<string, unknown>),
            fingerprint: peer.fingerprint256,
          },
        }
      : {}),
  };
}

/** Certificate errors that mean "no CA vouches for it": the certificate signed itself. */
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);

/** What is wrong with a certificate, by the error of its verification. */
export type TrustProblem = 'self-signed' | 'name' | 'expired' | 'ca';

export function trustProblem(error: string): TrustProblem {
  if (SELF_SIGNED.has(error)) return 'self-signed';
  if (error === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'name';
  if (error === 'CERT_HAS_EXPIRED' || error === 'CERT_NOT_YET_VALID') return 'expired';
  return 'ca';
}

/** A certificate problem as a noun phrase, e.g. "a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)". */
export function describeTrustError(error: string): string {
  const phrase = {
    'self-signed': 'a self-signed certificate',
    name: 'a certificate made for another host name',
    expired: 'a certificate outside its validity dates',
    ca: 'a certificate from a CA not trusted here',
  }[trustProblem(error)];
  return `${phrase} (${error})`;
}
