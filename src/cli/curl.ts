// `conformance curl`: one request to a target, made as a correct client makes it (a fresh token, the target's key,
// the signing profile), sent, its answer printed, the token revoked. The replay line of every failure in every report
// is one of these (src/report/exchange-text.ts), so pasting it sends the request again.
import { readFile } from 'node:fs/promises';
import { localOptionsOf } from './local-options.js';
import path from 'node:path';
import { STATUS_CODES } from 'node:http';
import type { OpenedTarget } from '../api.js';
import { checkTarget } from './early-checks.js';
import { ConfigError, TargetError, UserError } from '../errors.js';
import type { HttpResponse } from '../http/client.js';
import { nowSeconds } from '../http/signature.js';
import type { SignatureParam } from '../http/signature-base.js';
import {
  buildRequest,
  needsToken,
  resolveUrl,
  type BuiltRequest,
  type CurlSpec,
  type SignSpec,
} from '../replay/request.js';
import type { Choices, VariantName } from '../reference/choices/index.js';

export interface CurlCommandOptions {
  /** -X */
  request?: string;
  /** -H, in order. */
  header: string[];
  /** -d: the body, or @FILE. */
  data?: string;
  target: string;
  config?: string;
  variant?: VariantName;
  choice?: Partial<Choices>;
  fault?: string;
  components?: string;
  created?: string;
  expires?: string;
  keyid?: string;
  label?: string;
  param: string[];
  /** false with --no-sign. */
  sign: boolean;
  printHeaders?: boolean;
  verbose?: boolean;
  timeout: number;
}

interface Output {
  write(text: string | Uint8Array): unknown;
}

/** Returns the exit code: 0 once an answer came, whatever its status (as curl does). */
export async function curlCommand(
  url: string,
  opts: CurlCommandOptions,
  io: { out: Output; err: Output; cwd?: string } = { out: process.stdout, err: process.stderr },
): Promise<number> {
  // Everything the command line says is read before a server starts or a token is asked for.
  const spec = await curlSpec(url, opts, io.cwd ?? process.cwd());
  await checkTarget(opts, io.cwd);
  // Loaded once the command line holds: a usage error ends before the engine and the HTTP client load.
  const { openTarget } = await import('../api.js');
  const opened = await openTarget({
    target: opts.target,
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...(io.cwd !== undefined ? { cwd: io.cwd } : {}),
    local: localOptionsOf(opts),
    requestTimeoutMs: opts.timeout,
  });
  try {
    if (opened.local !== undefined)
      io.err.write(
        `conformance: target local: ${opened.local}; started for this command only, with the fixtures' starting data (nothing an earlier run changed), and stopped when it ends\n`,
      );
    checkOrigin(spec.url, opened);
    return await send(spec, opened, opts, io);
  } finally {
    await opened.close();
  }
}

async function send(spec: CurlSpec, opened: OpenedTarget, opts: CurlCommandOptions, io: { out: Output; err: Output }) {
  const { target, session, client } = opened;
  const withToken = needsToken(spec);
  let token: string | undefined;
  if (withToken) {
    await session.open();
    token = await session.token();
  }
  let keepToken = false;
  try {
    // Signed as the run signs: in the profile the token request found the server takes (or the config sets).
    const built = buildRequest(spec, target, token, nowSeconds(), client.signing);
    if (opts.printHeaders) {
      // The headers are for sending elsewhere: the token must outlive this command.
      keepToken = withToken;
      printHeaders(built, token !== undefined, opened, io);
      return 0;
    }
    if (opts.verbose) printSent(built, client.redactor.text.bind(client.redactor), io.err);
    let res: HttpResponse;
    const { ThrottledOut, TransportError } = await import('../http/client.js');
    try {
      res = await client.sendPrepared(built.request, {});
    } catch (e) {
      if (e instanceof TransportError || e instanceof ThrottledOut) {
        const advice = e instanceof TransportError && e.failure.advice !== undefined ? `; ${e.failure.advice}` : '';
        throw new TargetError(
          `${built.request.method} ${built.request.url}: ${e.message}${advice}`,
          'CONFORMANCE_ERR_REQUEST_FAILED',
        );
      }
      throw e;
    }
    printResponse(res, io.out);
    return 0;
  } finally {
    if (withToken && !keepToken) {
      const problem = await session.close();
      if (problem) {
        const revoked = /\/oauth\/revoke\/?$/.test(new URL(resolveUrl(spec.url, target.baseUrl)).pathname);
        const why = revoked ? 'the request revoked it already' : 'it ends when it expires';
        io.err.write(`conformance: ${problem.replaceAll("the run's token", "this command's token")} (${why})\n`);
      }
    }
  }
}

/** The request the command line describes; a value of the wrong form is a usage error (exit 2). */
export async function curlSpec(url: string, opts: CurlCommandOptions, cwd: string): Promise<CurlSpec> {
  if (!/^https?:\/\//i.test(url) && !url.startsWith('/'))
    throw new ConfigError(
      `"${url}" is neither an http(s) URL nor a path: give a path under the target's baseUrl, e.g. /instruments?investmentType=INTERNATIONAL_STOCKS`,
      'CONFORMANCE_ERR_USAGE',
    );
  const body = opts.data === undefined ? undefined : await dataOf(opts.data, cwd);
  const method = opts.request ?? (body !== undefined ? 'POST' : 'GET');
  if (!/^[A-Za-z]+$/.test(method))
    throw new ConfigError(`-X: "${method}" is not an HTTP method, e.g. GET or PUT`, 'CONFORMANCE_ERR_USAGE');
  return {
    method,
    url,
    headers: opts.header.map(parseHeader),
    ...(body !== undefined ? { body } : {}),
    sign: opts.sign ? signSpec(opts) : false,
  };
}

/** RFC 9110 token characters: what a field name is made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value`, or `Name:` for "without this header" (curl's own way to drop a header it would send). */
function parseHeader(text: string): [string, string | null] {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (!TOKEN.test(name))
    throw new ConfigError(
      `-H: "${text}" is not a header: write it as 'Name: value' (or 'Name:' to send the request without it)`,
      'CONFORMANCE_ERR_USAGE',
    );
  const value = text.slice(colon + 1).trim();
  return [name, value === '' ? null : value];
}

async function dataOf(data: string, cwd: string): Promise<Uint8Array> {
  if (!data.startsWith('@')) return new TextEncoder().encode(data);
  const file = path.resolve(cwd, data.slice(1));
  try {
    return new Uint8Array(await readFile(file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `-d: ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'unknown error'})`}: give the body, or @FILE to read it from a file`,
      'CONFORMANCE_ERR_OPTION_FILE',
    );
  }
}

function signSpec(opts: CurlCommandOptions): SignSpec {
  const spec: SignSpec = {};
  if (opts.components !== undefined) {
    const components = opts.components
      .split(/[\s,]+/)
      .map((c) => c.replace(/^"|"$/g, ''))
      .filter(Boolean);
    if (components.length === 0)
      throw new ConfigError(
        '--components: give the covered components, e.g. @method,@target-uri',
        'CONFORMANCE_ERR_USAGE',
      );
    spec.components = components;
  }
  if (opts.created !== undefined) spec.created = offset('--created', opts.created);
  if (opts.expires !== undefined) spec.expires = offset('--expires', opts.expires);
  if (opts.keyid !== undefined) spec.keyId = opts.keyid === 'none' ? null : opts.keyid;
  if (opts.label !== undefined) {
    if (!/^[a-z*][a-z0-9_.*-]*$/.test(opts.label))
      throw new ConfigError(
        `--label: "${opts.label}" is not a structured-field key (lowercase letters, digits, _ - . *)`,
        'CONFORMANCE_ERR_USAGE',
      );
    spec.label = opts.label;
  }
  if (opts.param.length > 0) spec.params = opts.param.map(parseParam);
  return spec;
}

/** Seconds from now (`-660`, `+300`, `0`), or `none` to leave the parameter out. */
function offset(option: string, value: string): number | null {
  if (value === 'none') return null;
  if (!/^[+-]?\d+$/.test(value))
    throw new ConfigError(
      `${option}: "${value}" is not a number of seconds from now (e.g. -600, 0, 300) or "none"`,
      'CONFORMANCE_ERR_USAGE',
    );
  return Number(value);
}

/** `name=value`: an integer, a "quoted string", or a bare token taken as a string. */
function parseParam(text: string): SignatureParam {
  const eq = text.indexOf('=');
  const name = eq === -1 ? '' : text.slice(0, eq);
  if (!/^[a-z*][a-z0-9_.*-]*$/.test(name))
    throw new ConfigError(`--param: "${text}" is not name=value, e.g. alg="ed25519"`, 'CONFORMANCE_ERR_USAGE');
  const raw = text.slice(eq + 1);
  if (/^-?\d{1,15}$/.test(raw)) return [name, Number(raw)];
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
  return [name, quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : raw];
}

/** The request carries the target's credentials: it goes to the target's origin only, as every request of a run. */
function checkOrigin(url: string, opened: OpenedTarget): void {
  const origin = new URL(resolveUrl(url, opened.target.baseUrl)).origin;
  if (origin !== opened.client.origin)
    throw new UserError(
      `${url} is not on the target's origin (${opened.client.origin}): conformance curl sends the target's credentials to it only; give a path under its baseUrl (${opened.target.baseUrl})`,
      2,
    );
}

function printResponse(res: HttpResponse, out: Output): void {
  const reason = STATUS_CODES[res.status] ?? '';
  const head = [`HTTP/1.1 ${res.status}${reason ? ` ${reason}` : ''}`, ...res.headers.map(([n, v]) => `${n}: ${v}`)];
  out.write(`${head.join('\n')}\n\n`);
  if (res.body.byteLength > 0) {
    out.write(res.body);
    if (res.body[res.body.byteLength - 1] !== 0x0a) out.write('\n');
  }
}

/** --print-headers: the headers on stdout, one a line; what they are for and how long they hold on stderr. */
function printHeaders(built: BuiltRequest, withToken: boolean, opened: OpenedTarget, io: { out: Output; err: Output }) {
  const { request, signed } = built;
  io.out.write(request.headers.map(([n, v]) => `${n}: ${v}\n`).join(''));
  const lines = [`the headers of ${request.method} ${request.url} (not sent)`];
  if (signed) {
    const expires = signed.params.find(([k]) => k === 'expires')?.[1];
    if (typeof expires === 'number') lines.push(`the signature expires at ${new Date(expires * 1000).toISOString()}`);
    lines.push('the signature base it signs:', ...signed.base.split('\n').map((l) => `  ${l}`));
  }
  if (withToken)
    lines.push(
      opened.local !== undefined
        ? 'the token (and the whole server) ends with this command: for a server that outlives it, use conformance serve and a target of its --config-out'
        : "the token is not revoked, or the headers would be of no use: it ends when it expires; to end it sooner, conformance curl -X POST /oauth/revoke -H 'Authorization: Bearer <the token>'",
    );
  io.err.write(lines.map((l) => `conformance: ${l}\n`).join(''));
}

/** -v: the request as sent (the token masked) and the signature base, on stderr. */
function printSent(built: BuiltRequest, mask: (text: string) => string, err: Output): void {
  const { request, signed } = built;
  const lines = [
    `> ${request.method} ${request.url}`,
    ...request.headers.map(
      ([n, v]) => `> ${n}: ${n.toLowerCase() === 'authorization' ? v.replace(/ .*/, ' [redacted]') : mask(v)}`,
    ),
  ];
  if (request.body)
    lines.push(
      '>',
      ...mask(new TextDecoder().decode(request.body))
        .split('\n')
        .map((l) => `> ${l}`),
    );
  if (signed) lines.push('* signature base:', ...signed.base.split('\n').map((l) => `*   ${l}`));
  err.write(`${lines.join('\n')}\n`);
}
