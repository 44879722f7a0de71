// Debian's nginx in front of a server or a receiver, the way partners deploy them (issue 26): started by the test on
// loopback ports in a temporary prefix (never the system service), stopped with the test. `.ci/run` installs nginx
// where it is missing; elsewhere a test that needs it is skipped with the install line (NGINX_MISSING), never passed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WAIT_MS } from './waits.js';
import { freePort } from './free-port.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/** Why the nginx tests cannot run here, or undefined when they can. In CI a missing nginx is a broken environment. */
export const NGINX_MISSING =
  NGINX === undefined ? 'nginx is absent: install it with "apt-get install -y nginx-light" (.ci/run does)' : undefined;

/** Whether a test that needs nginx is skipped here (locally without nginx; never in CI, where it fails instead). */
export const skipWithoutNginx = NGINX_MISSING !== undefined && !process.env.CI;

export interface Nginx {
  /** The loopback port nginx listens on for each name the test gave. */
  port(name: string): number;
  /** What nginx wrote to its access log (one line per request, `$status $request` first). */
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** The names of the ports nginx listens on; each gets a free loopback port. */
  ports: readonly string[];
  /** The contents of the `http {}` block, given the ports and the prefix directory (for certificate files). */
  http: (ports: Readonly<Record<string, number>>, prefix: string) => string;
  /** Files to write into the prefix directory first (certificates, keys). */
  files?: Readonly<Record<string, string>>;
}

export async function startNginx(options: NginxOptions): Promise<Nginx> {
  if (NGINX === undefined) throw new Error(NGINX_MISSING);
  const prefix = mkdtempSync(join(tmpdir(), 'conformance-nginx-'));
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(prefix, name), text);
  const ports: Record<string, number> = {};
  for (const name of options.ports) ports[name] = await freePort();
  const runAsRoot = process.getuid?.() === 0 ? 'user root;' : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${join(prefix, `${t}_temp`)};`)
    .join('\n  ');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `${runAsRoot}
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log stderr notice;
events { worker_connections 256; }
http {
  access_log ${join(prefix, 'access.log')};
  ${temp}
${options.http(ports, prefix)}
}
`,
  );
  let stderr = '';
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // nginx binds every listen socket before it starts its workers: the notice is the moment it accepts connections.
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`nginx did not start within ${WAIT_MS} ms: ${stderr}`)),
      WAIT_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/start worker process/.test(stderr)) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`nginx exited (${code}) before it started: ${stderr}`));
    });
  });
  return {
    port: (name) => {
      const port = ports[name];
      if (port === undefined) throw new Error(`no nginx port named ${name}`);
      return port;
    },
    accessLog: () => {
      const file = join(prefix, 'access.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
    errorLog: () => stderr,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
