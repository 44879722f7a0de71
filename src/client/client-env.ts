// The environment a client application under test is handed (README "Grading a client: `conformance client`"): one
// builder for the scenarios of `conformance client`, the proxy matrix and the tests that run the example clients, and
// the one list of the names the harness owns.

/** What a client application needs to know of its scenario, the server and its own credentials. */
export interface ClientEnvValues {
  scenario: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  privateKeyFile: string;
  /** The CA the client trusts for the server (the sandbox's, or the intercepting proxy's). */
  caFile: string;
  fixtures: object;
  /** The webhooks scenario's receiver. */
  receiver?: {
    certFile: string;
    keyFile: string;
    /** Where the receiver appends the eventId of each delivery it accepted (`conformance client` reads it). */
    acceptedFile?: string;
    /** A port chosen for it, and the URL it registers instead of its own (behind the proxy's receiver leg). */
    port?: number;
    webhookUrl?: string;
  };
}

/** Every variable the harness sets: inherited values of these are dropped, so that no scenario sees another's. */
const CLIENT_ENV_NAMES = [
  'CONFORMANCE_SCENARIO',
  'CONFORMANCE_BASE_URL',
  'CONFORMANCE_CLIENT_ID',
  'CONFORMANCE_CLIENT_SECRET',
  'CONFORMANCE_KEY_ID',
  'CONFORMANCE_PRIVATE_KEY_FILE',
  'CONFORMANCE_CA_FILE',
  'CONFORMANCE_FIXTURES',
  'CONFORMANCE_ACCEPTED_FILE',
  'CONFORMANCE_RECEIVER_CERT_FILE',
  'CONFORMANCE_RECEIVER_KEY_FILE',
  'CONFORMANCE_RECEIVER_PORT',
  'CONFORMANCE_WEBHOOK_URL',
] as const;

type ClientEnvName = (typeof CLIENT_ENV_NAMES)[number];

/**
 * The command's environment: `inherited` without any of the harness's names, then `extra` (a config's `env`, which may
 * set one the scenario leaves unset), then the scenario's variables, which win.
 */
export function clientEnv(
  values: ClientEnvValues,
  inherited: NodeJS.ProcessEnv = process.env,
  extra: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...inherited };
  for (const name of CLIENT_ENV_NAMES) delete env[name];
  const r = values.receiver;
  const own: Partial<Record<ClientEnvName, string>> = {
    CONFORMANCE_SCENARIO: values.scenario,
    CONFORMANCE_BASE_URL: values.baseUrl,
    CONFORMANCE_CLIENT_ID: values.clientId,
    CONFORMANCE_CLIENT_SECRET: values.clientSecret,
    CONFORMANCE_KEY_ID: values.keyId,
    CONFORMANCE_PRIVATE_KEY_FILE: values.privateKeyFile,
    CONFORMANCE_CA_FILE: values.caFile,
    CONFORMANCE_FIXTURES: JSON.stringify(values.fixtures),
    ...(r !== undefined
      ? {
          CONFORMANCE_RECEIVER_CERT_FILE: r.certFile,
          CONFORMANCE_RECEIVER_KEY_FILE: r.keyFile,
          ...(r.acceptedFile !== undefined ? { CONFORMANCE_ACCEPTED_FILE: r.acceptedFile } : {}),
          ...(r.port !== undefined ? { CONFORMANCE_RECEIVER_PORT: String(r.port) } : {}),
          ...(r.webhookUrl !== undefined ? { CONFORMANCE_WEBHOOK_URL: r.webhookUrl } : {}),
        }
      : {}),
  };
  return { ...env, ...extra, ...own };
}
