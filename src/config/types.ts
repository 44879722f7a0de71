import type { SigningProfile } from '../http/signature.js';
import type { ClientCertificate } from '../http/route.js';

/** Fixture ids on the target; a check whose fixture is missing is skipped with that reason. */
export interface Fixtures {
  customerId?: number;
  otherCustomerId?: number;
  accountId?: number;
  assetId?: number;
  transactionId?: number;
  mutableCustomerId?: number;
  paginationCustomerId?: number;
  unknownId?: number;
}

export type FixtureName = keyof Fixtures;

export type WebhookTls = 'self-signed' | 'none' | { certFile: string; keyFile: string };

export interface WebhookConfig {
  /** host:port the receiver binds; port 0 picks a free port. */
  listen: string;
  /** The https URL the server must call, when it differs from the listen address. */
  publicUrl?: string;
  tls: WebhookTls;
}

/**
 * How POST /oauth/revoke carries the token (spec: "Request body and response body of revoke: not shown"): no body (the
 * token in Authorization alone), a form body `token=` (RFC 7009), or a JSON body `{"token": …}`.
 */
export type RevokeBody = 'none' | 'form' | 'json';

/** A target after loading: env vars substituted, files read, paths absolute, key parsed. Holds secrets: never print it. */
export interface ResolvedTarget {
  name: string;
  /** Base URL including /v1, without a trailing slash. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  /** PKCS8 PEM text of the Ed25519 private key. */
  privateKeyPem: string;
  /** 32-byte Ed25519 seed from privateKeyPem. */
  privateKey: Uint8Array;
  /** PEM text of extra CA certificates, when the config gives caFile. */
  ca?: string;
  /**
   * Config `proxy`: the proxy requests to the target go through ("http://HOST:PORT", credentials in the URL), or "none"
   * for none; absent, HTTPS_PROXY, HTTP_PROXY and NO_PROXY decide (src/http/route.ts).
   */
  proxy?: string;
  /** The client certificate mutual TLS asks for: config clientCertFile, clientKeyFile, clientKeyPassphrase. */
  clientCertificate?: ClientCertificate;
  /** Checks that may run at once against this target (config `concurrency`); the runner's default when absent. */
  concurrency?: number;
  fixtures: Fixtures;
  webhook: WebhookConfig;
  /** Config `revoke`: the shape of the revoke request, fixed; absent, the run learns it at its first revocation. */
  revoke?: { body: RevokeBody };
  /**
   * What the config fixes of the signing profile (`signing`): the window, the derived components covering the target,
   * the label. A run learns the fields left out from the server (suites/kit/session.ts); absent: it learns them all.
   */
  signing?: Partial<SigningProfile>;
  /** Config `webhookClient`: a second client with no webhook, for the webhook-creation checks. Holds secrets. */
  webhookClient?: WebhookClient;
  /** The folder of the config file the target comes from: runs keep what they carry forward in its .conformance/. */
  configFolder?: string;
}

/** A second client of the target's server (config `webhookClient`), its key the target's unless the config gives one. */
export interface WebhookClient {
  clientId: string;
  clientSecret: string;
  keyId: string;
  /** 32-byte Ed25519 seed. */
  privateKey: Uint8Array;
}

export interface LoadedConfig {
  /** Absolute path of the config file, or undefined when only the built-in local target is available. */
  path?: string;
  targets: Record<string, ResolvedTarget>;
}
