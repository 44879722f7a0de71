// How requests reach the target (issue 26, corporate networks): directly, or through the HTTP(S) proxy the
// environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, as undici reads them) or the target's config (`proxy`) names; trusting
// the system's CAs and the target's caFile; presenting the client certificate mutual TLS asks for (`clientCertFile`).
// The one place a dispatcher for the target is made (a run, `conformance curl` and `replay` all send through
// SignedClient), and the one place the route's own failures are worded: a proxy that refuses, a proxy out of reach, a
// server that wants a client certificate, so that no message blames the target or the credentials for them.
import { subscribe } from 'node:diagnostics_channel';
import { STATUS_CODES } from 'node:http';
import { createSecureContext, rootCertificates } from 'node:tls';
import { ConfigError } from '../errors.js';
import { Agent, ProxyAgent, type Dispatcher } from './undici.js';
import { isLoopbackHost } from './loopback.js';

/** The client certificate a target asks for (mutual TLS), as the config resolved it. Holds a key: never print it. */
export interface ClientCertificate {
  /** PEM certificate, and the chain up to the CA the server trusts when the file holds it. */
  cert: string;
  /** PEM private key of `cert` (possibly encrypted with `passphrase`). */
  key: string;
  passphrase?: string;
  /** What the run says of it: where it came from and whose it is (no secret). */
  label: string;
}

export interface RouteOptions {
  /** The target's config `proxy`: a proxy URL, or "none"; absent, the environment's. */
  proxy?: string;
  /** Extra CA certificates (PEM) trusted besides the system's, for the target and for an https proxy. */
  ca?: string;
  clientCertificate?: ClientCertificate;
  /** Where HTTPS_PROXY and the others are read; process.env by default (tests give their own). */
  env?: NodeJS.ProcessEnv;
}

/** A proxy the requests to the target go through. */
interface ProxyRoute {
  url: URL;
  /** The URL as reports show it: the user name and password replaced by [redacted]. */
  shown: string;
  /** Where it was named: `HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY`, `http_proxy`, or `the target's "proxy"`. */
  from: string;
  /** The user name and password of the URL (Basic, as undici sends them), for the redactor; absent without them. */
  secrets?: string[];
}

export interface Route {
  /** The target's origin and its host:port. */
  origin: string;
  hostPort: string;
  proxy?: ProxyRoute;
  /** Why a proxy the environment names is not used for this target (NO_PROXY, loopback, `"proxy": "none"`). */
  bypassed?: string;
  clientCertificate?: ClientCertificate;
}

const PROXY_EXAMPLE = 'http://proxy.example.com:3128';

/**
 * A proxy URL as given: http:// or https://, or host:port alone (http, as curl reads it); or what is wrong with it, to
 * follow the name of where it was given (no value is quoted: it may hold a password).
 */
export function parseProxyUrl(text: string): { url: URL } | { problem: string } {
  const given = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { problem: `is not a URL: give the proxy as ${PROXY_EXAMPLE}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      problem: `is a ${url.protocol.slice(0, -1)} proxy: only http:// and https:// proxies are supported, e.g. ${PROXY_EXAMPLE}`,
    };
  if (url.hostname === '') return { problem: `names no host: give the proxy as ${PROXY_EXAMPLE}` };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return { problem: `has a path or a query: give the proxy's address alone, e.g. ${PROXY_EXAMPLE}` };
  return { url };
}

/** A proxy URL as reports show it: scheme, host and port; the user name and password as [redacted]. */
export function showProxy(url: URL): string {
  const auth = url.username !== '' || url.password !== '' ? '[redacted]@' : '';
  return `${url.protocol}//${auth}${url.host}`;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The route to `baseUrl`. The config's `proxy` wins ("none": never a proxy); else the environment's, as undici's
 * EnvHttpProxyAgent reads it: https_proxy, HTTPS_PROXY, then http_proxy, HTTP_PROXY for an https target, the last two
 * for an http one (lower case first), NO_PROXY as undici matches it. One exception: a target on this machine's loopback
 * is never sent to a proxy from the environment, which would reach its own loopback, not ours (as Go's proxy settings
 * do); the config's `proxy` still sends it. A proxy setting that cannot be used is a ConfigError (exit 2) naming it.
 */
export function routeTo(baseUrl: string, options: RouteOptions = {}): Route {
  const target = new URL(baseUrl);
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  const route: Route = { origin: target.origin, hostPort: `${target.hostname}:${port}` };
  if (options.clientCertificate) route.clientCertificate = options.clientCertificate;
  const env = options.env ?? process.env;
  const fromEnv = proxyVariable(target.protocol, env);
  if (options.proxy !== undefined) {
    if (options.proxy.trim() === 'none') {
      if (fromEnv) route.bypassed = `the target's "proxy" is "none" (${fromEnv.name} is set)`;
      return route;
    }
    return {
      ...route,
      proxy: proxyRoute(
        proxyUrlOf(options.proxy, `the target's "proxy"`, 'CONFORMANCE_ERR_CONFIG'),
        `the target's "proxy"`,
      ),
    };
  }
  if (!fromEnv) return route;
  const url = proxyUrlOf(fromEnv.value, `the environment's ${fromEnv.name}`, 'CONFORMANCE_ERR_CONFIG_ENV');
  // Kept with brackets, as undici compares an IPv6 address.
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  if (isLoopbackHost(target.hostname)) {
    route.bypassed = `${target.hostname} is this machine's loopback, which a proxy cannot reach for it (${fromEnv.name} is set; give the target's "proxy" to go through it anyway)`;
    return route;
  }
  const exempt = noProxyMatch(host, port, env);
  if (exempt !== undefined) {
    route.bypassed = `${exempt} (${fromEnv.name} is set)`;
    return route;
  }
  return { ...route, proxy: proxyRoute(url, fromEnv.name) };
}

function proxyUrlOf(text: string, where: string, code: 'CONFORMANCE_ERR_CONFIG' | 'CONFORMANCE_ERR_CONFIG_ENV'): URL {
  const parsed = parseProxyUrl(text);
  if ('problem' in parsed) throw new ConfigError(`proxy: ${where} ${parsed.problem}`, code);
  return parsed.url;
}

function proxyRoute(url: URL, from: string): ProxyRoute {
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return {
    url,
    shown: showProxy(url),
    from,
    ...(user !== '' || password !== ''
      ? { secrets: [password, url.password, Buffer.from(`${user}:${password}`).toString('base64')] }
      : {}),
  };
}

/** The proxy variable undici takes for a target of `protocol`, if any is set to something. */
function proxyVariable(protocol: string, env: NodeJS.ProcessEnv): { name: string; value: string } | undefined {
  const first = (lower: string, upper: string) => {
    const name = env[lower] !== undefined ? lower : upper;
    const value = env[name];
    return value ? { name, value } : undefined;
  };
  const http = first('http_proxy', 'HTTP_PROXY');
  return protocol === 'https:' ? (first('https_proxy', 'HTTPS_PROXY') ?? http) : http;
}

/**
 * Which NO_PROXY entry exempts `host`:`port`, in undici's reading: entries split at commas and spaces, each a host
 * (a leading "." or "*." dropped) matching the host itself and its subdomains, with ":port" matching that port only;
 * the whole value "*" exempts every host. No CIDR ranges.
 */
function noProxyMatch(host: string, port: number, env: NodeJS.ProcessEnv): string | undefined {
  const name = env.no_proxy !== undefined ? 'no_proxy' : 'NO_PROXY';
  const value = env[name] ?? '';
  const entries = value.split(/[,\s]/).filter((e) => e !== '');
  if (entries.length === 0) return undefined;
  if (value === '*') return `${name} is "*"`;
  for (const entry of entries) {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const entryHost = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed ? Number(parsed[2]) : 0;
    if (entryPort !== 0 && entryPort !== port) continue;
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return `${name} names ${entry}`;
  }
  return undefined;
}

/** What a run's notes say of the route: nothing when it is the default (directly, no proxy set, no certificate). */
export function routeNotes(route: Route): string[] {
  const notes: string[] = [];
  if (route.proxy)
    notes.push(
      `network: the target was reached through the proxy ${route.proxy.shown} (${route.proxy.from}), in a tunnel (CONNECT ${route.hostPort}): the proxy passed the bytes on and saw none of them`,
    );
  else if (route.bypassed)
    notes.push(`network: the target was reached directly, not through a proxy: ${route.bypassed}`);
  if (route.clientCertificate)
    notes.push(`mutual TLS: the client certificate presented was ${route.clientCertificate.label}`);
  return notes;
}

export interface DispatcherOptions {
  /** Time to connect, and to wait for headers and for the body. */
  timeoutMs: number;
  ca?: string;
}

/**
 * What makes the dispatchers of the requests to the target along `route`: each an Agent, or undici's ProxyAgent
 * tunnelling through the proxy (CONNECT, for http targets too: the proxy then cannot rewrite what is judged), all with
 * the one TLS context of the CA and the client certificate.
 */
export function routeDispatchers(route: Route, options: DispatcherOptions): () => Dispatcher {
  watchTlsAlerts();
  // caFile adds to the system's trusted roots rather than replacing them. The roots, the CA and the client certificate
  // are read once into one TLS context: given as `ca`, every new connection would parse some 150 certificates again
  // (tens of ms each time), and a proxy that ends connections often makes that the run's time. Beside a context,
  // connect ignores `ca`, `cert` and `key`: all go in it.
  const ca = options.ca ? { ca: [...rootCertificates, options.ca] } : {};
  const cert = route.clientCertificate;
  const context = (withCert: boolean) =>
    options.ca || (withCert && cert)
      ? {
          secureContext: createSecureContext({
            ...ca,
            ...(withCert && cert
              ? { cert: cert.cert, key: cert.key, ...(cert.passphrase ? { passphrase: cert.passphrase } : {}) }
              : {}),
          }),
        }
      : {};
  const forTarget = context(true);
  const tls = { timeout: options.timeoutMs, ...forTarget };
  // An https proxy is trusted by the same CAs; the client certificate is the target's alone.
  const proxyTls = { timeout: options.timeoutMs, ...(cert ? context(false) : forTarget) };
  const common = {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    // Servers under test may be slow to close; never let an idle socket keep the process alive.
    keepAliveTimeout: 1_000,
  };
  const proxy = route.proxy;
  if (!proxy) return () => new Agent({ ...common, connect: tls });
  // ProxyAgent reads request headers into an object, which keeps one value of a name given twice: given as lists,
  // every field line goes out as the client made it.
  return () =>
    new ProxyAgent({ ...common, uri: proxy.url.href, requestTls: tls, proxyTls }).compose(
      (dispatch) => (opts, handler) => dispatch({ ...opts, headers: headerRecord(opts.headers) }, handler),
    );
}

function headerRecord(headers: Dispatcher.DispatchOptions['headers']): Dispatcher.DispatchOptions['headers'] {
  if (!Array.isArray(headers)) return headers;
  const record: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = String(headers[i]);
    const value = String(headers[i + 1]);
    const had = record[name];
    record[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return record;
}

/**
 * TLS alerts a server sent: undici reports a connection the server closed after its alert as "other side closed",
 * without the alert; the alert is kept here by the connection's ports, for the message to name it.
 */
const tlsAlerts = new Map<string, { code: string; at: number }>();
const MAX_ALERTS = 64;
let watching = false;

function socketKey(s: { localPort?: number | undefined; remotePort?: number | undefined }): string {
  return `${s.localPort}>${s.remotePort}`;
}

function watchTlsAlerts(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:connected', (message) => {
    const { socket } = message as {
      socket: NodeJS.EventEmitter & { localPort?: number; remotePort?: number; encrypted?: boolean };
    };
    if (!socket.encrypted) return;
    const key = socketKey(socket);
    tlsAlerts.delete(key);
    socket.prependListener('error', (err: { code?: unknown }) => {
      if (typeof err.code !== 'string' || !/^ERR_SSL_.*ALERT/.test(err.code)) return;
      tlsAlerts.set(key, { code: err.code, at: Date.now() });
      if (tlsAlerts.size > MAX_ALERTS) tlsAlerts.delete(tlsAlerts.keys().next().value!);
    });
  });
}

/** The TLS alert behind an error: its own code, or the alert its connection received before it closed. */
function tlsAlertOf(err: ErrorShape): string | undefined {
  const own = [err.cause?.code, err.code].find((c): c is string => typeof c === 'string' && /^ERR_SSL_.*ALERT/.test(c));
  if (own) return own;
  const socket = err.socket ?? err.cause?.socket;
  if (socket?.localPort === undefined) return undefined;
  return tlsAlerts.get(socketKey(socket))?.code;
}

interface SocketInfo {
  localPort?: number;
  remotePort?: number;
  bytesRead?: number;
}

interface ErrorShape {
  code?: unknown;
  message?: string;
  socket?: SocketInfo;
  cause?: { code?: unknown; message?: string; socket?: SocketInfo };
}

export interface RouteFailure {
  text: string;
  kind: 'no-answer' | 'tls';
  advice: string;
}

/** What the server's TLS alert says of the client certificate, with and without one presented. */
const ALERTS: Record<string, { name: string; withCert: string; withoutCert?: string }> = {
  // TLS 1.3: the server asked for a certificate and got none (RFC 8446 §6.2).
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: {
    name: 'certificate required',
    withCert: 'the server says no client certificate was presented, though clientCertFile gives one',
    withoutCert: 'the server requires a client certificate (mutual TLS), and none was presented',
  },
  // TLS 1.2 servers end a handshake without the certificate they require so, and for other reasons too.
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: {
    name: 'handshake failure',
    withCert: 'the server refused the TLS handshake with the client certificate of clientCertFile presented',
    withoutCert:
      'the server refused the TLS handshake, as a server that requires a client certificate (mutual TLS) does when none is presented',
  },
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: {
    name: 'unknown CA',
    withCert: 'the server does not trust the issuer of the client certificate of clientCertFile',
  },
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: {
    name: 'bad certificate',
    withCert: 'the server refused the client certificate of clientCertFile as bad',
  },
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: {
    name: 'unsupported certificate',
    withCert: 'the server does not take the kind of client certificate clientCertFile gives',
  },
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: {
    name: 'certificate revoked',
    withCert: 'the server says the client certificate of clientCertFile is revoked',
  },
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: {
    name: 'certificate expired',
    withCert: 'the server says the client certificate of clientCertFile has expired',
  },
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: {
    name: 'certificate unknown',
    withCert: 'the server refused the client certificate of clientCertFile',
  },
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: {
    name: 'access denied',
    withCert: 'the server denied access to the client certificate of clientCertFile',
  },
};

const CERT_ADVICE =
  "give the certificate and key the provider issued (or accepts) for your client in the target's clientCertFile and clientKeyFile (PEM files)";
const WRONG_CERT_ADVICE =
  'ask the provider which certificate it accepts (its issuer, its subject) and give that one in clientCertFile and clientKeyFile';

/** Codes of a connection that could not be made: through a proxy, the connection to the proxy. */
const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there (ECONNREFUSED)',
  ENOTFOUND: 'its name does not resolve (ENOTFOUND)',
  EAI_AGAIN: 'its name could not be resolved, no answer from DNS (EAI_AGAIN)',
  EHOSTUNREACH: 'no route to it (EHOSTUNREACH)',
  ENETUNREACH: 'no network route to it (ENETUNREACH)',
};

/**
 * A failure of the route rather than of the target, in one line with its fix: the proxy refused the tunnel (407, 403,
 * a 5xx), the proxy cannot be reached, the server's TLS alert about the client certificate; or a certificate not
 * trusted when a proxy may be the one presenting it. Undefined for everything else.
 */
export function describeRouteFailure(err: unknown, route: Route | undefined): RouteFailure | undefined {
  if (route === undefined) return undefined;
  const e = (err ?? {}) as ErrorShape;
  const proxy = route.proxy;
  if (proxy) {
    const about = `the proxy ${proxy.shown} (${proxy.from})`;
    const setting = proxy.from.startsWith('the target') ? `the target's "proxy"` : proxy.from;
    const message = e.message ?? '';
    const tunnel = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message);
    if (tunnel) return tunnelRefused(Number(tunnel[1]), about, setting, route.hostPort, proxy.secrets !== undefined);
    const code = [e.cause?.code, e.code].find((c): c is string => typeof c === 'string');
    if (code !== undefined && CONNECT_FAILURES[code])
      return {
        text: `${about} cannot be reached: ${CONNECT_FAILURES[code]}; the target was not tried`,
        kind: 'no-answer',
        advice: `check ${setting}, or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target's "proxy" to "none"`,
      };
    // The time limit covers the connection to the proxy, the tunnel and the TLS handshake through it.
    if (code === 'UND_ERR_CONNECT_TIMEOUT')
      return {
        text: `no connection to ${route.hostPort} through ${about} in time (${code})`,
        kind: 'no-answer',
        advice: `check ${setting} and that the proxy is up, or give it longer with --timeout`,
      };
    if (
      code !== undefined &&
      /^(UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT)$/.test(
        code,
      )
    )
      return {
        text: `TLS: the certificate presented for ${route.hostPort} through ${about} is not trusted (${code})`,
        kind: 'tls',
        advice:
          "a proxy that inspects TLS presents certificates of its own CA: give that CA (or the target's) in the target's caFile or in NODE_EXTRA_CA_CERTS",
      };
  }
  const alert = tlsAlertOf(e);
  const said = alert === undefined ? undefined : ALERTS[alert];
  const cert = route.clientCertificate;
  // A server that checks the certificate after the handshake (Node's, with rejectUnauthorized) closes without an alert.
  const socket = e.socket ?? e.cause?.socket;
  if (
    alert === undefined &&
    cert &&
    route.origin.startsWith('https:') &&
    e.code === 'UND_ERR_SOCKET' &&
    socket?.bytesRead === 0
  )
    return {
      text: `the server closed the connection without an answer, after a TLS handshake in which the client certificate of clientCertFile was presented (UND_ERR_SOCKET: ${e.message ?? 'closed'})`,
      kind: 'no-answer',
      advice: `a server that does not accept that certificate closes so: ${WRONG_CERT_ADVICE}`,
    };
  if (alert === undefined || said === undefined) return undefined;
  const what = cert
    ? said.withCert
    : (said.withoutCert ?? `the server ended the TLS handshake with the alert "${said.name}"`);
  return {
    text: `TLS: ${what} (alert "${said.name}", ${alert})`,
    kind: 'tls',
    advice: cert ? WRONG_CERT_ADVICE : CERT_ADVICE,
  };
}

function tunnelRefused(
  status: number,
  about: string,
  setting: string,
  hostPort: string,
  withAuth: boolean,
): RouteFailure {
  const answered = `answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
  const direct = `or, if the target is reachable without a proxy, add its host to NO_PROXY or set the target's "proxy" to "none"`;
  if (status === 407)
    return withAuth
      ? {
          text: `${about} refused the user name and password of its URL (${answered}); the target was not tried`,
          kind: 'no-answer',
          advice: `check them in ${setting} (http://USER:PASSWORD@HOST:PORT, special characters percent-encoded)`,
        }
      : {
          text: `${about} asks for a user name and password (${answered}); the target was not tried`,
          kind: 'no-answer',
          advice: `give them in ${setting}: http://USER:PASSWORD@HOST:PORT (special characters percent-encoded)`,
        };
  if (status === 403)
    return {
      text: `${about} refused to open a tunnel to ${hostPort} (${answered}); the target was not tried`,
      kind: 'no-answer',
      advice: `ask the proxy's administrators to allow CONNECT to ${hostPort} (many proxies allow port 443 only), ${direct}`,
    };
  if (status >= 500)
    return {
      text: `${about} could not reach ${hostPort} (${answered} to CONNECT ${hostPort})`,
      kind: 'no-answer',
      advice: `check baseUrl's host and port: the proxy resolves and connects to them itself; ${direct}`,
    };
  return {
    text: `${about} refused to open a tunnel to ${hostPort} (${answered} to CONNECT ${hostPort}); the target was not tried`,
    kind: 'no-answer',
    advice: `check ${setting}, ${direct}`,
  };
}
