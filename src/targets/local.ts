// The built-in target `local`: the embedded reference server on a loopback port, with a client and key made fresh for
// this run, so `npx conformance run` needs no configuration and no secret ever leaves the process. `conformance
// serve` starts the same sandbox and hands its target out as a config file.
import { randomBytes } from 'node:crypto';
import { generateEd25519 } from '../http/keys.js';
import {
  startReferenceServer,
  type ReferenceServer,
  type ReferenceOptions,
  type RequestLogEntry,
} from '../reference/server.js';
import { defaultFixtures } from '../reference/store.js';
import { nonDefault, resolveChoices, type Choices, type VariantName } from '../reference/choices/index.js';
import type { ResolvedTarget } from '../config/types.js';
import { BUILTIN_TARGET } from '../config/load.js';
import { checkFaultNames } from './fault-names.js';
import { receiverTls } from '../receiver/certificate.js';
import { localWebhook } from './local-webhook.js';

export interface LocalTargetOptions {
  host?: string;
  port?: number;
  variant?: VariantName;
  /** Open points of the spec, over the variant's bundle (`--choice NAME=VALUE`). */
  choices?: Partial<Choices>;
  faults?: readonly string[];
  /** Extra CA (PEM) the server trusts when it delivers webhooks, e.g. the suite's self-signed receiver. */
  webhookCa?: string;
  /** Target name in reports; `local` by default. */
  name?: string;
  /** Every reply of the server waits this long, like a server across a network. */
  latencyMs?: number;
  /** Called once per request (`conformance serve` logs it; a run's embedded target does not). */
  log?: (entry: RequestLogEntry) => void;
  /** Behaviour laid over the server's (tests: a reading or a defect no choice or fault names). */
  middleware?: ReferenceOptions['middleware'];
  /**
   * Serve https with this certificate and key (PEM), which the target then trusts as its CA; with `clientCa`, require
   * a client certificate issued by it (mutual TLS, `serve --tls --client-ca`).
   */
  tls?: { cert: string; key: string; clientCa?: string };
}

export interface LocalTarget {
  target: ResolvedTarget;
  server: ReferenceServer;
  /** One line for reports: the variant, the choices that differ from the defaults, the faults. */
  describe: string;
  stop(): Promise<void>;
}

export async function startLocalTarget(options: LocalTargetOptions = {}): Promise<LocalTarget> {
  checkFaultNames(options.faults ?? []);
  const key = generateEd25519();
  const clientId = 'conformance-local';
  const clientSecret = randomBytes(24).toString('base64url');
  const keyId = `local-${randomBytes(4).toString('hex')}`;
  const webhook = localWebhook();
  // The receiver a run starts for this target presents this same (per-process) certificate: trusting it lets the
  // sandbox deliver to it without being handed anything. Asked for at the first delivery, not here: a run that selects
  // no webhooks check starts no receiver, draws no delivery, and so never pays for the certificate.
  const receiverCa = async (): Promise<string> => {
    const ca = (await receiverTls(webhook))!.cert;
    return options.webhookCa ? `${options.webhookCa.trimEnd()}\n${ca}` : ca;
  };
  const server = await startReferenceServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    clients: [{ clientId, clientSecret, keyId, publicKey: key.publicKey, name: 'Local conformance client' }],
    ...(options.variant ? { variant: options.variant } : {}),
    ...(options.choices ? { choices: options.choices } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.middleware ? { middleware: options.middleware } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    webhookCa: receiverCa,
  });
  return {
    target: {
      name: options.name ?? BUILTIN_TARGET,
      baseUrl: server.baseUrl,
      clientId,
      clientSecret,
      keyId,
      privateKeyPem: key.privateKeyPem,
      privateKey: key.seed,
      fixtures: defaultFixtures(),
      webhook,
      ...(options.tls ? { ca: options.tls.cert } : {}),
    },
    server,
    describe: describeLocal(options),
    stop: () => server.close(),
  };
}

function describeLocal(options: LocalTargetOptions): string {
  const choices = nonDefault(resolveChoices(options.variant, options.choices));
  const faults = options.faults ?? [];
  return [
    `the embedded reference server, variant ${options.variant ?? 'strict'}`,
    choices.length > 0 ? `choices ${choices.join(' ')}` : 'every open point at its default reading',
    faults.length > 0 ? `faults ${faults.join(', ')}` : 'no faults',
    ...(options.tls
      ? [`https${options.tls.clientCa !== undefined ? ', a client certificate required (mutual TLS)' : ''}`]
      : []),
  ].join('; ');
}
