// What the run says when its set-up, not the server, keeps deliveries from being judged (issue 26): the receiver sees
// plain HTTP on its TLS port, TLS handshakes refused, nothing at all, or deliveries behind a proxy that rewrote their URL
// beyond reading back. Each is one problem, stated once by the run, and one fix; the evidence is what the run can
// observe: the receiver's own tallies, the answer to POST /webhooks/test, and the run's own request through
// webhook.publicUrl (probe.ts). Where the evidence cannot tell two causes apart, the fix names both, with the check for
// each. Nothing here quotes OpenSSL's raw text: a set-up problem's words are repeated by every check it keeps from
// running. (TLS handshakes refused by the server, the receiver's own certificate, are the webhooks suite's to word.)
import type { WebhookConfig } from '../config/types.js';
import { describeTrustError, trustProblem, type ProbeResult } from './probe.js';

export interface SetupDiagnosis {
  problem: string;
  fix: string;
}

/** What the diagnosis reads of the receiver. */
export interface ReceiverView {
  url: string;
  listening: string;
  certificatePem: string | undefined;
  counts: { plainHttp: number };
}

/** The answer to the run's POST /webhooks/test, when one was sent. */
export interface TestAnswer {
  status: number;
  text: string;
}

const DOCS = 'see docs/webhook-receiver.md';

/**
 * Why nothing reached the receiver, from what the receiver saw, the test's answer and the probe's result: plain HTTP on
 * its TLS port, or no connection at all. (TLS handshakes refused, the receiver's own certificate not trusted, are the
 * suite's: its fix names the certificate files of the config.)
 */
export function unreachedDiagnosis(
  r: ReceiverView,
  settings: WebhookConfig,
  test: TestAnswer | undefined,
  probe: ProbeResult | undefined,
): SetupDiagnosis {
  if (r.counts.plainHttp > 0) return plainHttp(r, settings);
  return noConnection(r, settings, test, probe);
}

/** A proxy or tunnel that ends TLS and forwards plain HTTP to a receiver still set to TLS. */
function plainHttp(r: ReceiverView, settings: WebhookConfig): SetupDiagnosis {
  const n = r.counts.plainHttp;
  const problem = `plain HTTP reached the webhook receiver's TLS port: ${n} connection${n === 1 ? '' : 's'} began with an HTTP request instead of a TLS handshake, and no delivery arrived`;
  const fix = settings.publicUrl
    ? `set webhook.tls: "none": the proxy or tunnel at webhook.publicUrl (${settings.publicUrl}) ends TLS and forwards plain HTTP to the receiver (listening on ${r.listening}); ${DOCS}`
    : `something between the server and the receiver ends TLS and forwards plain HTTP: set webhook.tls: "none" and webhook.publicUrl to that proxy's https URL; ${DOCS}`;
  return { problem, fix };
}

/** Words of a delivery error that speak of certificates and TLS, or of reaching the host at all. */
const TLS_WORDS =
  /certificate|x509|self[- ]signed|unknown (ca|authority)|unable to verify|handshake|\bssl\b|\btls\b|CERT_|ERR_TLS/i;
const NETWORK_WORDS =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|connection refused|timed? ?out|could not resolve|no route to host/i;

/** A short, one-line quote of what the server answered to POST /webhooks/test, when it speaks of TLS or the network. */
function testSays(test: TestAnswer | undefined): { kind: 'tls' | 'network'; quote: string } | undefined {
  if (test === undefined) return undefined;
  const kind = TLS_WORDS.test(test.text) ? 'tls' : NETWORK_WORDS.test(test.text) ? 'network' : undefined;
  if (kind === undefined) return undefined;
  const line = test.text.replace(/\s+/g, ' ').trim();
  return { kind, quote: line.length > 160 ? `${line.slice(0, 160)}…` : line };
}

function noConnection(
  r: ReceiverView,
  settings: WebhookConfig,
  test: TestAnswer | undefined,
  probe: ProbeResult | undefined,
): SetupDiagnosis {
  const confirmed =
    test === undefined
      ? ''
      : test.status >= 200 && test.status <= 299
        ? `, not even for POST /webhooks/test (answered ${test.status})`
        : ` (POST /webhooks/test answered ${test.status}, so no test delivery was due either)`;
  const head = `nothing reached the webhook receiver at ${r.url}: no delivery and no connection${confirmed}`;
  const said = testSays(test);
  const saying = said ? `; the server's answer to POST /webhooks/test says "${said.quote}"` : '';
  if (settings.publicUrl === undefined)
    return {
      problem: `${head}${saying}`,
      fix: `check the receiver's URL (${r.url}) is reachable from the server: set webhook.listen to an address it can reach, or webhook.publicUrl to a tunnel or proxy in front of the receiver; ${DOCS}`,
    };
  const publicUrl = new URL(settings.publicUrl);
  const at = publicUrl.host;
  const network = 'its DNS, firewall and route to that host and port';
  const reach = `check the server can reach ${at} from where it runs (${network})`;
  const trust = `give the proxy at ${at} a certificate from a CA the server trusts, or hand its certificate to the provider to trust`;
  // The server's own words, when it gives them, name the cause; the probe only tells what this machine sees.
  if (said?.kind === 'tls') return { problem: `${head}${saying}`, fix: `${trust}; ${DOCS}` };
  if (said?.kind === 'network') return { problem: `${head}${saying}`, fix: `${reach}; ${DOCS}` };
  if (probe === undefined || probe.kind === 'unreachable')
    return {
      problem: `${head}; from this machine too, ${at} gives no answer (${probe?.error ?? 'not tried'})`,
      fix: `start the proxy or tunnel at ${at} and have it forward to the receiver (listening on ${r.listening}), or correct webhook.publicUrl; ${DOCS}`,
    };
  if (probe.kind === 'answered' && probe.status >= 300 && probe.status <= 399 && probe.location !== undefined) {
    // A redirect (nginx: a location "/hook/" asked for as "/hook"): servers do not follow one with a webhook delivery.
    const to = new URL(probe.location, probe.url);
    to.search = publicUrl.search;
    return {
      problem: `${head}; the proxy at ${at} answers the run's own request with a redirect (${probe.status} to ${probe.location}), which a server does not follow with a delivery`,
      fix: `set webhook.publicUrl to ${to.href}, where the proxy redirects, or have the proxy forward ${publicUrl.pathname} itself; ${DOCS}`,
    };
  }
  if (probe.kind === 'answered')
    return {
      problem: `${head}; the proxy at ${at} answers the run's own request itself (${probe.status}${probe.server ? `, Server: ${probe.server}` : ''}) and forwards nothing to the receiver`,
      fix: `have the proxy at ${at} forward to the receiver's listen address (${r.certificatePem ? 'https' : 'http'}://${r.listening}), keeping the path and query; ${DOCS}`,
    };
  const cert = probe.trust?.certificate;
  if (probe.trust !== undefined && !probe.trust.trusted) {
    const error = probe.trust.error ?? 'not trusted';
    const named = cert ? ` (${cert.subject}, SHA-256 ${cert.fingerprint})` : '';
    const fix = {
      'self-signed': `give the proxy at ${at} a certificate from a CA the server trusts, or hand this one${named} to the provider to trust`,
      ca: `give the proxy at ${at} a certificate from a CA the server trusts, or hand this one${named} to the provider to trust`,
      name: `give the proxy at ${at} a certificate that names ${publicUrl.hostname}, from a CA the server trusts`,
      expired: `renew the certificate of the proxy at ${at}${named}`,
    }[trustProblem(error)];
    return {
      problem: `${head}; the proxy at ${at} forwards the run's own request, but presents ${describeTrustError(error)}, not trusted here either`,
      fix: `the server most likely refuses it too: ${fix}; ${DOCS}`,
    };
  }
  // From here the public URL works: what the server does differently cannot be told; both causes, with their checks.
  const issuer = cert ? ` (issued by ${cert.issuer})` : '';
  return {
    problem: `${head}; from this machine webhook.publicUrl works: the proxy at ${at} presents a certificate trusted here${issuer} and forwards the run's own request`,
    fix: `either the server cannot reach ${at} from where it runs (check ${network}), or it does not trust the CA of the proxy's certificate${issuer} (ask the provider which CAs its webhook client trusts); ${DOCS}`,
  };
}

/** Deliveries a proxy rewrote beyond reading back: which registered URL each was sent to cannot be told. */
export function unmappedDiagnosis(r: ReceiverView, arrived: string, why: string): SetupDiagnosis {
  return {
    problem: `a delivery reached the webhook receiver at ${arrived}, not at a URL the run registered (${r.url}), and where it was sent cannot be read back: ${why}`,
    fix: `make the proxy in front forward the path and query unchanged (nginx: \`proxy_pass http://${r.listening};\`, no path after the address), or set webhook.publicUrl to a URL the proxy forwards unchanged; ${DOCS}`,
  };
}
