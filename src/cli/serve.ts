// `conformance serve`: the reference server as a sandbox for client developers (and a target for the suite), with
// --fault to make it deviate on purpose. It hands out a ready-to-use target config, since its client is made fresh.
import { requirementRefs } from '../catalog/requirements.js';
import { requirementLine } from '../report/requirement-text.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { startLocalTarget } from '../targets/local.js';
import { FAULTS } from '../reference/faults/catalog.js';
import { allChoices, type Choices, type VariantName } from '../reference/choices/index.js';
import { findRequirement } from '../catalog/requirements.js';
import { UNSWITCHABLE } from '../reference/choices/unswitchable.js';
import { fromPackageRoot } from '../paths.js';
import type { ResolvedTarget, WebhookTls } from '../config/types.js';
import { makeCertificate, receiverTls } from '../receiver/certificate.js';
import { formatRequestLog } from '../reference/rejection.js';

export interface ServeOptions {
  host: string;
  port: number;
  fault?: string;
  variant: VariantName;
  choice?: Partial<Choices>;
  listFaults?: boolean;
  listChoices?: boolean;
  configOut?: string;
  webhookCa?: string;
  /** Serve https, with a self-signed certificate for the host and loopback. */
  tls?: boolean;
  /** Require a client certificate issued by the CA(s) of this PEM file (mutual TLS); implies --tls. */
  clientCa?: string;
  latency?: number;
  /** No request log. */
  quiet?: boolean;
}

const SANDBOX_TARGET = 'sandbox';

export async function serveCommand(opts: ServeOptions): Promise<number> {
  if (opts.listFaults) {
    process.stdout.write(faultTable());
    return 0;
  }
  if (opts.listChoices) {
    process.stdout.write(choiceTable());
    return 0;
  }
  const faults =
    opts.fault
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean) ?? [];
  const webhookCa = opts.webhookCa ? readCa(opts.webhookCa) : undefined;
  const clientCa = opts.clientCa
    ? readCa(opts.clientCa, '--client-ca', 'the CA that issues the client certificates to accept')
    : undefined;
  const tls =
    opts.tls || clientCa !== undefined
      ? { ...(await serverCertificate(opts.host)), ...(clientCa !== undefined ? { clientCa } : {}) }
      : undefined;
  const local = await startLocalTarget({
    host: opts.host,
    port: opts.port,
    variant: opts.variant,
    ...(opts.choice ? { choices: opts.choice } : {}),
    faults,
    name: SANDBOX_TARGET,
    ...(webhookCa ? { webhookCa } : {}),
    ...(opts.latency ? { latencyMs: opts.latency } : {}),
    ...(tls ? { tls } : {}),
    // One line per request, a rejection's code and reason in it: what a client developer watches while testing.
    ...(opts.quiet ? {} : { log: (entry) => process.stdout.write(`${formatRequestLog(entry)}\n`) }),
  });
  const lines = [
    `conformance reference server — ${local.describe}${opts.latency ? `; every answer ${opts.latency} ms late` : ''}`,
    `  base URL   ${local.target.baseUrl}`,
    `  client id  ${local.target.clientId}`,
    `  key id     ${local.target.keyId}`,
  ];
  if (tls)
    lines.push(
      `  tls        https with a self-signed certificate for ${opts.host} and loopback${clientCa !== undefined ? `; a client certificate issued by ${opts.clientCa} (--client-ca) is required: give it in the target's clientCertFile and clientKeyFile` : ''}`,
    );
  if (opts.configOut) {
    const file = resolve(opts.configOut);
    const receiver = await writeReceiverTls(file, local.target);
    const caFile = tls ? writeServerCa(file, tls.cert) : undefined;
    // The file holds the sandbox client's secret and key: readable by this user only.
    writeFileSync(file, `${JSON.stringify(sandboxConfig(local.target, receiver, caFile), null, 2)}\n`, { mode: 0o600 });
    lines.push(
      `  config     ${file} (target "${SANDBOX_TARGET}"): npx conformance run --config ${opts.configOut} --target ${SANDBOX_TARGET}`,
    );
    lines.push(
      `  webhooks   the sandbox trusts the receiver certificate ${receiver.certFile} that this config gives the run's receiver${opts.webhookCa ? `, and those of ${opts.webhookCa} (--webhook-ca)` : ''}`,
    );
  } else {
    lines.push(`  config     pass --config-out FILE to get the client's secret and signing key as a target config`);
    if (opts.webhookCa)
      lines.push(
        `  webhooks   the sandbox trusts the certificates of ${opts.webhookCa} (--webhook-ca) for its deliveries`,
      );
  }
  lines.push(
    `  receiver   a staging server reaches the run's webhook receiver through the target's webhook.listen, webhook.publicUrl (https) and webhook.tls (docs/webhook-receiver.md)`,
  );
  lines.push(
    opts.quiet
      ? '  log        off (--quiet)'
      : '  log        one line per request below: status, method, path, and for a rejection its code and reason',
  );
  lines.push('Press Ctrl-C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
  await stopOnSignal();
  await local.stop();
  process.stdout.write('stopped\n');
  return 0;
}

/**
 * The certificate the sandbox trusts for webhook delivery, written beside the config (the key readable by this user
 * only), so the receiver of a `conformance run` in another process presents it. Paths are relative to the config.
 */
async function writeReceiverTls(
  configFile: string,
  target: ResolvedTarget,
): Promise<{ certFile: string; keyFile: string }> {
  const material = (await receiverTls(target.webhook))!;
  const stem = basename(configFile, extname(configFile));
  const certFile = `./${stem}.receiver-cert.pem`;
  const keyFile = `./${stem}.receiver-key.pem`;
  writeFileSync(join(dirname(configFile), certFile), material.cert);
  writeFileSync(join(dirname(configFile), keyFile), material.key, { mode: 0o600 });
  return { certFile, keyFile };
}

/** The sandbox's own certificate, written beside the config for its caFile (a path relative to the config). */
function writeServerCa(configFile: string, cert: string): string {
  const caFile = `./${basename(configFile, extname(configFile))}.server-cert.pem`;
  writeFileSync(join(dirname(configFile), caFile), cert);
  return caFile;
}

/** A self-signed certificate for `serve --tls`: the host it binds (unless a wildcard) and loopback. */
async function serverCertificate(host: string): Promise<{ cert: string; key: string }> {
  const names = [
    ...new Set([...(['0.0.0.0', '::', ''].includes(host) ? [] : [host]), 'localhost', '127.0.0.1', '::1']),
  ];
  return makeCertificate(names);
}

/** A config file for the sandbox's freshly made client: everything `conformance run --config` needs. */
function sandboxConfig(target: ResolvedTarget, receiverTlsFiles?: WebhookTls, caFile?: string): object {
  return {
    $schema: fromPackageRoot('schemas', 'config.schema.json'),
    targets: {
      [SANDBOX_TARGET]: {
        baseUrl: target.baseUrl,
        clientId: target.clientId,
        clientSecret: target.clientSecret,
        keyId: target.keyId,
        privateKey: target.privateKeyPem,
        ...(caFile !== undefined ? { caFile } : {}),
        fixtures: target.fixtures,
        webhook: { listen: target.webhook.listen, tls: receiverTlsFiles ?? target.webhook.tls },
      },
    },
  };
}

function readCa(
  file: string,
  option = '--webhook-ca',
  what = 'the CA certificate(s) of your webhook receiver',
): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(
      `${option}: cannot read ${file}; give a PEM file with ${what}`,
      'CONFORMANCE_ERR_OPTION_FILE',
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`${option}: ${file} holds no PEM certificate`, 'CONFORMANCE_ERR_OPTION_FILE');
  return text;
}

function stopOnSignal(): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function faultTable(): string {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  const rows = FAULTS.map(
    (f) =>
      `${f.name.padEnd(width)}  ${f.suite.padEnd(10)}  ${f.description}\n${' '.repeat(width + 14)}breaks: ${requirementRefs(f.breaks, `fault ${f.name}`).map(requirementLine).join('; ')}`,
  );
  return `${FAULTS.length} faults\n${rows.join('\n')}\n`;
}

/** Every open point the server can read either way: its name, the spec sentence that leaves it open, its readings. */
export function choiceTable(): string {
  const out: string[] = [];
  const choices = allChoices();
  out.push(
    `${choices.length} choices (the first reading is the default); serve or run --choice NAME=VALUE, repeatable`,
  );
  for (const c of choices) {
    out.push('', c.name);
    for (const id of c.def.requirements) {
      const r = findRequirement(id);
      out.push(`  ${id} ${r ? `${r.level} "${r.quote}"` : '(not in the catalog)'}`);
    }
    if (c.def.basis) out.push(`  open because: ${c.def.basis}`);
    for (const [i, v] of c.def.values.entries()) {
      out.push(
        `  ${i === 0 ? '*' : ' '} ${c.name}=${v.value}  ${v.says}${v.realizes.length > 0 ? `  (reading: ${v.realizes.map((x) => `"${x}"`).join(', ')})` : ''}`,
      );
    }
  }
  const unswitchable = Object.entries(UNSWITCHABLE);
  out.push('', `${unswitchable.length} open points no switch can show (docs/open-points.md)`);
  for (const [id, why] of unswitchable) {
    const r = findRequirement(id);
    out.push(
      '',
      `${id} ${r ? `"${r.quote}"` : ''}`,
      `  readings: ${(r?.readings ?? []).map((x) => `"${x}"`).join(', ')}`,
      `  no switch: ${why}`,
    );
  }
  return `${out.join('\n')}\n`;
}
