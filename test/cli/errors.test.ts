// The error codes are a public contract (docs/errors.md): every code well formed and documented, every error class a
// user can meet carrying one, its exit code the table's, and the CLI's one line ending with it.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors.js';
import {
  CheckTimeout,
  ConfigError,
  ConformanceError,
  ERROR_CODES,
  errorCode,
  JournalError,
  KeyError,
  HarError,
  NothingToRerun,
  ProxyCaError,
  ProxyListenError,
  RestoreFailed,
  RunInterrupted,
  TargetError,
  ThrottledOut,
  UndeclaredSharedState,
  UserError,
  withCode,
  type ErrorCode,
} from '../../src/errors.js';
import * as pkg from '../../src/index.js';
import { BudgetSpent } from '../../src/engine/budget.js';
import { NothingToRerun as NothingToRerunOfRerun } from '../../src/report/rerun.js';
import { CredentialsRefused, ThrottledOut as ThrottledOutOfClient, TransportError } from '../../src/http/client.js';
import { KeyError as KeyErrorOfKeys } from '../../src/http/keys.js';
import { UndeclaredSharedState as UndeclaredOfKit } from '../../src/engine/index.js';
import { toJsonReport } from '../../src/report/json.js';
import type { Exchange } from '../../src/http/exchange.js';
import { runCli } from '../helpers/cli.js';
import { sampleChecks, sampleRunResult } from '../helpers/run-result.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

const exchange: Exchange = {
  seq: 1,
  checkId: 'x',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'GET', url: 'https://a.example/v1/x', headers: [], bodySize: 0 },
};

/** One instance of every class of errors a user can meet, whatever module it is defined in. */
const INSTANCES: ConformanceError[] = [
  new UserError('m', 2),
  new UserError('m', 3),
  new ConfigError('m'),
  new ConfigError('m', 'CONFORMANCE_ERR_OUTPUT_PATH'),
  new TargetError('m'),
  new TargetError('m', 'CONFORMANCE_ERR_NO_TOKEN'),
  new NothingToRerun('r.json'),
  new KeyError('is not a key'),
  new ThrottledOut('429 past the wait'),
  new CheckTimeout(10),
  new RunInterrupted('SIGINT'),
  new JournalError('m'),
  new RestoreFailed('m'),
  new ProxyCaError('m'),
  new ProxyListenError('m'),
  new HarError('m'),
  new UndeclaredSharedState('m'),
  new BudgetSpent(60_000),
  new TransportError('refused', exchange),
  new CredentialsRefused('https://b.example', exchange),
];

/**
 * Classes of errors no user can cause, each with why; every other class extending Error must extend ConformanceError.
 * The reference server's own (src/reference/) answer HTTP requests or refuse a bad seed of ours, and may import only
 * src/http/ and the schemas.
 */
const WITHOUT_CODE: Record<string, string> = {
  'src/engine/outcomes.ts:CheckFailed': 'an outcome of a check (fail), not an error',
  'src/engine/outcomes.ts:CheckSkipped': 'an outcome of a check (skip), not an error',
  'suites/kit/clean-up.ts:TimeUp':
    'ends a timed-out body once its restore is done; the engine reports the time-out (CONFORMANCE_ERR_CHECK_TIMEOUT), never this',
  'src/http/signature-base.ts:SignatureBaseError':
    'caught by verifySignature, which reports it as the reason of a verdict',
  'src/http/client.ts:BodyTooLarge': 'caught by the client, which throws a TransportError naming the cap',
  'src/catalog/requirements.ts:UnknownRequirementError':
    'a check citing a requirement the catalog lacks: a bug of ours (CONFORMANCE_ERR_INTERNAL)',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) =>
      relative(ROOT, join(ROOT, dir, f))
        .split('\\')
        .join('/'),
    );
}

describe('ERROR_CODES', () => {
  it('has unique, well-formed codes, each with an exit code and a meaning', () => {
    expect(new Set(CODES.map((c) => c.toUpperCase())).size).toBe(CODES.length);
    for (const code of CODES) {
      expect(code).toMatch(/^CONFORMANCE_ERR_[A-Z_]+$/);
      expect([0, 1, 2, 3, 4, null]).toContain(ERROR_CODES[code].exitCode);
      expect(ERROR_CODES[code].meaning.length, code).toBeGreaterThan(20);
    }
    expect(ERROR_CODES.CONFORMANCE_ERR_INTERNAL.exitCode).toBe(4);
  });

  it('is listed whole in docs/errors.md, each code with its exit code', () => {
    const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `(CONFORMANCE_ERR_[A-Z_]+)` \| ([0-4]|—) \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(CODES.map((c) => [c, String(ERROR_CODES[c].exitCode ?? '—')]));
  });

  it('is exported by the package with errorCode and the base class', () => {
    expect(pkg.ERROR_CODES).toBe(ERROR_CODES);
    expect(pkg.errorCode).toBe(errorCode);
    expect(pkg.ConformanceError).toBe(ConformanceError);
  });
});

describe('error classes', () => {
  it('give every error a user can meet a code of the table, and a user error the exit code of its code', () => {
    for (const err of INSTANCES) {
      expect(err, err.name).toBeInstanceOf(ConformanceError);
      expect(CODES, err.name).toContain(err.code);
      expect(err.name).toBe(err.constructor.name);
      if (err instanceof UserError) expect(err.exitCode, err.code).toBe(ERROR_CODES[err.code].exitCode);
    }
    expect(new CredentialsRefused('https://b.example', exchange).code).toBe('CONFORMANCE_ERR_CREDENTIALS_REFUSED');
    expect(new TransportError('x', exchange).code).toBe('CONFORMANCE_ERR_TRANSPORT');
    expect(new UserError('m', 2).code).toBe('CONFORMANCE_ERR_USAGE');
    expect(new ConfigError('m').code).toBe('CONFORMANCE_ERR_CONFIG');
  });

  it('are the same classes under their old modules', () => {
    expect(NothingToRerunOfRerun).toBe(NothingToRerun);
    expect(ThrottledOutOfClient).toBe(ThrottledOut);
    expect(KeyErrorOfKeys).toBe(KeyError);
    expect(UndeclaredOfKit).toBe(UndeclaredSharedState);
  });

  it('leave no class of errors in src/ or suites/ without a code, except those no user can cause', () => {
    const coded = new Set([
      'ConformanceError',
      ...Object.keys(errors),
      'TransportError',
      'CredentialsRefused',
      'BudgetSpent',
    ]);
    const uncoded: string[] = [];
    const exempt: string[] = [];
    for (const file of [...sourceFiles('src'), ...sourceFiles('suites')]) {
      if (file.startsWith('src/reference/')) continue;
      for (const [, name, base] of readFileSync(join(ROOT, file), 'utf8').matchAll(/\bclass (\w+) extends (\w+)/g)) {
        if (!/Error$|^Error$/.test(base!) && !coded.has(base!)) continue;
        if (!coded.has(base!) && !coded.has(name!))
          (WITHOUT_CODE[`${file}:${name}`] === undefined ? uncoded : exempt).push(`${file}:${name}`);
        if (coded.has(base!) && !coded.has(name!))
          uncoded.push(`${file}:${name} extends ${base}: add it to INSTANCES and to coded`);
      }
    }
    expect(uncoded).toEqual([]);
    // The scan sees the classes it lets pass.
    expect(exempt).toEqual(expect.arrayContaining(Object.keys(WITHOUT_CODE)));
  });
});

describe('errorCode', () => {
  it('reads the code of an error of ours, also from another copy of the module, and nothing else', () => {
    expect(errorCode(new CheckTimeout(5))).toBe('CONFORMANCE_ERR_CHECK_TIMEOUT');
    expect(errorCode(new BudgetSpent(1000))).toBe('CONFORMANCE_ERR_BUDGET_SPENT');
    expect(errorCode(Object.assign(new Error('from dist/'), { code: 'CONFORMANCE_ERR_NO_TOKEN' }))).toBe(
      'CONFORMANCE_ERR_NO_TOKEN',
    );
    expect(errorCode(Object.assign(new Error('fs'), { code: 'ENOENT' }))).toBeUndefined();
    expect(errorCode(Object.assign(new Error('made up'), { code: 'CONFORMANCE_ERR_NO_SUCH_CODE' }))).toBeUndefined();
    expect(errorCode(new TypeError('x'))).toBeUndefined();
    for (const value of [undefined, null, 'CONFORMANCE_ERR_CONFIG', 42]) expect(errorCode(value)).toBeUndefined();
  });

  it('is shown in one format', () => {
    expect(withCode('--budget: "x" is not a duration', 'CONFORMANCE_ERR_USAGE')).toBe(
      '--budget: "x" is not a duration [CONFORMANCE_ERR_USAGE]',
    );
  });
});

describe('the JSON report', () => {
  it("carries a finding's code, and the schema takes it", async () => {
    const checks = sampleChecks().map((c) =>
      c.outcome === 'error'
        ? { ...c, finding: { message: 'the check did not finish within 10 ms', code: 'CONFORMANCE_ERR_CHECK_TIMEOUT' } }
        : c,
    );
    const report = toJsonReport(sampleRunResult(checks));
    expect(report.checks.filter((c) => c.outcome === 'error').map((c) => c.finding?.code)).toEqual([
      'CONFORMANCE_ERR_CHECK_TIMEOUT',
    ]);
    expect(report.checks.filter((c) => c.outcome !== 'error').every((c) => c.finding?.code === undefined)).toBe(true);
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
      ajv: Ajv2020,
    ) => Ajv2020;
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/report.schema.json'), 'utf8')) as object;
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(schema);
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });
});

// The compiled CLI (`npm run build` first), as a user runs it: one line on stderr, ending with the code.
describe('the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-errors-'));

  it.each([
    {
      args: ['run', '--target', 'staging', '--config', 'no-such.json'],
      exit: 2,
      code: 'CONFORMANCE_ERR_CONFIG_NOT_FOUND',
      line: /^conformance: config: --config .*no-such\.json does not exist/,
    },
    {
      args: ['run', '--target', 'staging'],
      exit: 2,
      code: 'CONFORMANCE_ERR_UNKNOWN_TARGET',
      line: /^conformance: config: no target named "staging"/,
    },
    {
      args: ['run', '--budget', 'soon'],
      exit: 2,
      code: 'CONFORMANCE_ERR_USAGE',
      line: /^conformance: --budget: "soon" is not a duration/,
    },
    {
      args: ['run', '--json', '/no/such/dir/r.json'],
      exit: 2,
      code: 'CONFORMANCE_ERR_OUTPUT_PATH',
      line: /^conformance: --json: the folder \/no\/such\/dir does not exist/,
    },
  ])('$args.0 $args.1 $args.2 exits $exit with one line ending in $code', async ({ args, exit, code, line }) => {
    const res = await runCli(args, { cwd: dir });
    expect(res.code).toBe(exit);
    expect(ERROR_CODES[code as ErrorCode].exitCode).toBe(exit);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(lines[0]!.endsWith(` [${code}]`)).toBe(true);
    expect(res.stdout).toBe('');
  });

  it("shows commander's usage errors in the same format", async () => {
    const res = await runCli(['run', '--no-such-flag'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toBe("conformance: unknown option '--no-such-flag' [CONFORMANCE_ERR_USAGE]");
  });
});
