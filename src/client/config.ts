// `conformance client --config FILE`: per-scenario time limits, an extra CA the sandbox trusts for the client's own
// receiver certificate, and environment variables for the command. Every mistake is one line naming the field.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { SCENARIOS, type ScenarioName } from './types.js';
import { isScenarioName } from './scenarios.js';

export interface ClientConfig {
  /** Seconds, per scenario, replacing the scenario's default time limit. */
  timeLimitSeconds?: Partial<Record<ScenarioName, number>>;
  /** PEM text of extra CA certificates the sandbox trusts when it delivers to the client's receiver. */
  webhookCa?: string;
  /** More environment for the command. */
  env?: Record<string, string>;
}

const FIELDS = ['timeLimitSeconds', 'webhookCa', 'env'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads and checks the file; `webhookCa` is read relative to the file's folder. */
export async function loadClientConfig(path: string, cwd = process.cwd()): Promise<ClientConfig> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `--config: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'CONFORMANCE_ERR_CONFIG_NOT_FOUND',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--config ${path} is not JSON: ${(e as Error).message}`);
  }
  const bad = (what: string): never => {
    throw new ConfigError(`--config ${path}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    bad('must be a JSON object with timeLimitSeconds, webhookCa and env');
  const raw = value as Record<string, unknown>;
  const unknown = Object.keys(raw).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) bad(`unknown field "${unknown}"; the fields are ${FIELDS.join(', ')}`);

  const config: ClientConfig = {};
  if (raw.timeLimitSeconds !== undefined) {
    const limits = raw.timeLimitSeconds;
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
      bad('timeLimitSeconds must be an object of scenario name to seconds, e.g. {"read": 30}');
    config.timeLimitSeconds = {};
    for (const [name, seconds] of Object.entries(limits as Record<string, unknown>)) {
      if (!isScenarioName(name))
        bad(`timeLimitSeconds: unknown scenario "${name}"; the scenarios are ${SCENARIOS.join(', ')}`);
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
        bad(`timeLimitSeconds.${name} must be a number of seconds above 0 and at most 3600`);
      config.timeLimitSeconds[name as ScenarioName] = seconds as number;
    }
  }
  if (raw.webhookCa !== undefined) {
    if (typeof raw.webhookCa !== 'string' || raw.webhookCa === '')
      bad('webhookCa must be the path of a PEM file of CA certificates');
    const caFile = resolve(dirname(file), raw.webhookCa as string);
    let pem: string;
    try {
      pem = await readFile(caFile, 'utf8');
    } catch (e) {
      throw new ConfigError(
        `--config ${path}: webhookCa: cannot read ${caFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        'CONFORMANCE_ERR_CONFIG_FILE',
      );
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new ConfigError(
        `--config ${path}: webhookCa: ${caFile} holds no PEM certificate`,
        'CONFORMANCE_ERR_CONFIG_FILE',
      );
    config.webhookCa = pem;
  }
  if (raw.env !== undefined) {
    if (typeof raw.env !== 'object' || raw.env === null || Array.isArray(raw.env))
      bad('env must be an object of variable name to string value');
    config.env = {};
    for (const [name, v] of Object.entries(raw.env as Record<string, unknown>)) {
      if (!ENV_NAME.test(name)) bad(`env: "${name}" is not a variable name`);
      if (name.startsWith('CONFORMANCE_')) bad(`env: ${name}: the CONFORMANCE_ variables are set by the harness`);
      if (typeof v !== 'string') bad(`env.${name} must be a string`);
      config.env[name] = v as string;
    }
  }
  return config;
}
