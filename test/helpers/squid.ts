// Debian's squid as the forward proxy of a corporate network (issue 26): started by the test on loopback ports with a
// temporary config and directory (never the system service), stopped with the test. `.ci/run` installs squid where it
// is missing; elsewhere a test that needs it is skipped with the install line (SQUID_MISSING), never passed.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WAIT_MS } from './waits.js';
import { freePort } from './free-port.js';

const SQUID = ['/usr/sbin/squid', '/usr/bin/squid'].find((p) => existsSync(p));
/** Squid's helper that takes any user name and password: a proxy that demands credentials (407) without any. */
const FAKE_AUTH = ['/usr/lib/squid/basic_fake_auth', '/usr/lib64/squid/basic_fake_auth'].find((p) => existsSync(p));

/** Why the squid tests cannot run here, or undefined when they can. In CI a missing squid is a broken environment. */
export const SQUID_MISSING =
  SQUID === undefined || FAKE_AUTH === undefined
    ? 'squid is absent: install it with "apt-get install -y squid" (.ci/run does)'
    : undefined;

/** Whether a test that needs squid is skipped here (locally without squid; never in CI, where it fails instead). */
export const skipWithoutSquid = SQUID_MISSING !== undefined && !process.env.CI;

export interface Squid {
  /** The proxy that lets every loopback client through: http://127.0.0.1:PORT. */
  open: string;
  /** The proxy that asks for a user name and password (407 without; any pair is taken): http://127.0.0.1:PORT. */
  auth: string;
  /** squid's access log: one line per request, a CONNECT logged when its tunnel closes. */
  accessLog(): string;
  /** Resolves with the access log once `test` holds for it (squid writes a line as a request or tunnel ends). */
  waitForLog(test: (log: string) => boolean): Promise<string>;
  stop(): Promise<void>;
}

export interface SquidOptions {
  /** Names squid resolves itself (its hosts_file), e.g. a target's name that only the proxy knows. */
  hosts?: Readonly<Record<string, string>>;
}

export async function startSquid(options: SquidOptions = {}): Promise<Squid> {
  if (SQUID === undefined || FAKE_AUTH === undefined) throw new Error(SQUID_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-squid-'));
  // Started as root, squid works as its own user (proxy): it must be able to write its logs here.
  chmodSync(dir, 0o777);
  const open = await freePort();
  const auth = await freePort();
  writeFileSync(
    join(dir, 'hosts'),
    Object.entries(options.hosts ?? {})
      .map(([name, address]) => `${address} ${name}\n`)
      .join(''),
  );
  writeFileSync(
    join(dir, 'squid.conf'),
    `http_port 127.0.0.1:${open} name=open
http_port 127.0.0.1:${auth} name=auth
pid_filename ${join(dir, 'squid.pid')}
access_log stdio:${join(dir, 'access.log')}
cache_log ${join(dir, 'cache.log')}
cache_store_log none
cache deny all
coredump_dir ${dir}
hosts_file ${join(dir, 'hosts')}
pinger_enable off
shutdown_lifetime 0 seconds
auth_param basic program ${FAKE_AUTH}
auth_param basic realm conformance-test
acl authport myportname auth
acl authed proxy_auth REQUIRED
acl loopback src 127.0.0.0/8
http_access allow loopback !authport
http_access allow loopback authport authed
http_access deny all
`,
  );
  let stderr = '';
  const child: ChildProcess = spawn(SQUID, ['-N', '-d', '1', '-f', join(dir, 'squid.conf')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // squid says so for each port once it accepts connections there.
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`squid did not start within ${WAIT_MS} ms: ${stderr}`)),
      WAIT_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if ((stderr.match(/Accepting HTTP Socket connections/g) ?? []).length >= 2) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`squid exited (${code}) before it started: ${stderr}`));
    });
  });
  const accessLog = () => {
    const file = join(dir, 'access.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  return {
    open: `http://127.0.0.1:${open}`,
    auth: `http://127.0.0.1:${auth}`,
    accessLog,
    waitForLog: (test) =>
      new Promise((resolve, reject) => {
        const settle = () => {
          const log = accessLog();
          if (!test(log)) return;
          watcher.close();
          clearTimeout(deadline);
          resolve(log);
        };
        // Every write to the log is an event on its folder; the log is read again at each.
        const watcher = watch(dir, settle);
        const deadline = setTimeout(() => {
          watcher.close();
          reject(new Error(`squid's access log did not show it within ${WAIT_MS} ms; it holds:\n${accessLog()}`));
        }, WAIT_MS);
        settle();
      }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
