// What the end-to-end tests of `conformance proxy` share (test/e2e/proxy*.test.ts): a config naming a reference server
// as target "staging", `conformance proxy` as a child process up to the lines a client needs, and its JSON report.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { SignedClient } from '../../src/http/client.js';
import type { LocalTarget } from '../../src/targets/local.js';
import { BIN, waitForOutput } from './cli.js';
import { WAIT_MS } from './waits.js';

/** The parts of the proxy's JSON report the tests read. */
export interface ProxyJsonReport {
  run: { notes: string[] };
  checks: Array<{
    id: string;
    outcome: string;
    skipReason?: string;
    observations?: string[];
    finding?: { message: string };
    exchanges: Array<{ checkId: string; request: { method: string; url: string } }>;
  }>;
  verdict: { status: string };
}

/** `promise`, or a rejection naming `what` once WAIT_MS have passed. */
export function deadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms`)), WAIT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Writes into `dir` a config file naming `local` target "staging" (the client's key and the server's CA beside it, as
 * `${name}-key.pem` and `${name}-server-ca.pem`); returns the config file's path.
 */
export function writeStagingConfig(dir: string, name: string, local: LocalTarget): string {
  const t = local.target;
  writeFileSync(join(dir, `${name}-key.pem`), t.privateKeyPem, { mode: 0o600 });
  writeFileSync(join(dir, `${name}-server-ca.pem`), t.ca!);
  const staging = {
    baseUrl: t.baseUrl,
    clientId: t.clientId,
    clientSecret: t.clientSecret,
    keyId: t.keyId,
    privateKeyFile: `./${name}-key.pem`,
    caFile: `./${name}-server-ca.pem`,
    fixtures: t.fixtures,
  };
  const file = join(dir, `${name}.config.json`);
  writeFileSync(file, JSON.stringify({ targets: { staging } }), { mode: 0o600 });
  return file;
}

export interface ProxySession {
  child: ChildProcess;
  /** What it printed up to the line saying how the session ends. */
  banner: string;
  /** The proxy's address, as HTTPS_PROXY. */
  url: string;
  /** The file of the CA it printed, and its certificate as it was when the proxy started. */
  caFile: string;
  ca: string;
  /** The webhook URL it printed for the client to register (with --receiver). */
  webhookUrl: string | undefined;
  /** Resolves once its output so far (the banner included) matches `pattern`. */
  printed(pattern: RegExp): Promise<void>;
  /** SIGINT (unless `signal` is false: it ends by itself), then its exit code and its output, the banner included. */
  end(signal?: boolean): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `conformance proxy ARGS` as a child process in `dir`; resolves once it printed what a client needs. */
export async function startProxy(dir: string, args: string[]): Promise<ProxySession> {
  const child = spawn(process.execPath, [BIN, 'proxy', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const banner = await waitForOutput(child, /session ends|Ctrl-C ends the session/);
  const url = /^ {2}HTTPS_PROXY=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(banner)?.[1];
  const caFile = /^ {2}CA: (\S+)/m.exec(banner)?.[1];
  expect(url).toBeDefined();
  expect(caFile).toBeDefined();
  let stdout = banner;
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    banner,
    url: url!,
    caFile: caFile!,
    ca: readFileSync(caFile!, 'utf8'),
    webhookUrl: /^ {2}webhooks: register (https:\/\/127\.0\.0\.1:\d+\S*) as the webhook URL/m.exec(banner)?.[1],
    printed: (pattern) =>
      deadline(
        new Promise<void>((done) => {
          const check = () => (pattern.test(stdout) ? done() : waiters.push(check));
          check();
        }),
        `${pattern} in the proxy's output`,
      ),
    async end(signal = true) {
      if (signal) child.kill('SIGINT');
      const [code] = await deadline(exited, 'the proxy to exit');
      return { code, stdout, stderr };
    },
  };
}

/** The JSON report at `file` (relative to `dir`, or absolute). */
export function proxyReport(dir: string, file: string): ProxyJsonReport {
  return JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as ProxyJsonReport;
}

/**
 * A correct client of `local`'s target through the proxy at `proxy.url` (trusting the CA `proxy.ca`), and the token it
 * obtained there; the caller closes the client.
 */
export async function clientThroughProxy(
  local: LocalTarget,
  proxy: { url: string; ca: string },
): Promise<{ client: SignedClient; token: string }> {
  const t = local.target;
  const client = new SignedClient({
    baseUrl: t.baseUrl,
    clientId: t.clientId,
    keyId: t.keyId,
    privateKey: t.privateKey,
    ca: proxy.ca,
    proxy: proxy.url,
  });
  try {
    const tokenRes = await client.send({
      method: 'POST',
      path: '/oauth/token',
      form: { clientId: t.clientId, clientSecret: t.clientSecret },
      clientId: null,
      token: null,
    });
    expect(tokenRes.status).toBe(200);
    const record = JSON.parse(tokenRes.text) as { token?: string; data?: { token: string } };
    return { client, token: record.data?.token ?? record.token! };
  } catch (err) {
    await client.close();
    throw err;
  }
}
