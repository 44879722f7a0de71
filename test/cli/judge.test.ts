// `conformance judge FILE.har` end to end (issue 30): the resources suite runs against the reference server with a fault
// that traffic alone shows, writing --har; judging that HAR finds the fault on the server's side, citing the observed
// exchange, and judging a clean run's HAR finds nothing. The verdict never claims more than the traffic exercised.
// A truncated or hand-broken HAR ends in exit 2 and one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/api.js';
import { pack } from '../../suites/index.js';
import { judge } from '../../src/judge-api.js';
import { HarError, UserError } from '../../src/errors.js';
import type { RunResult } from '../../src/engine/index.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { runCli } from '../helpers/cli.js';

const quiet = { onNote: () => undefined };

let dir: string;
let faultyHar: string;
let cleanHar: string;
let faulty: RunResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-judge-'));
  faultyHar = join(dir, 'faulty.har');
  cleanHar = join(dir, 'clean.har');
  faulty = await run({
    suites: ['resources'],
    har: faultyHar,
    local: { faults: ['resources.json-as-text-plain', 'resources.integer-beyond-2-53'] },
  });
  await run({ suites: ['resources'], har: cleanHar });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('conformance judge', () => {
  it("finds on the server's side the faults the run found that traffic alone shows, citing the observed exchanges", async () => {
    const ran = (id: string) => faulty.checks.find((c) => c.id === id)?.outcome;
    expect([ran('resources.responses.json-type'), ran('resources.numbers.safe-integers')]).toEqual(['warn', 'warn']);

    const result = await judge({ file: faultyHar, ...quiet });
    const judged = result.checks.filter((c) => c.outcome !== 'skip');
    const found = judged.filter((c) => c.outcome !== 'pass');
    expect(found.map((c) => [c.id, c.outcome]).sort()).toEqual([
      ['resources.numbers.safe-integers', 'warn'],
      ['resources.responses.json-type', 'warn'],
    ]);
    // The checks that judged the rest of the traffic (error bodies, timestamps, paging meta, …) find nothing else.
    expect(judged.length).toBeGreaterThan(found.length);
    for (const c of found) {
      expect(c.exchanges.length).toBeGreaterThan(0);
      expect(c.exchanges.every((e) => e.checkId === 'observed')).toBe(true);
    }
    expect(judged.find((c) => c.id === 'resources.responses.json-type')?.finding?.message).toMatch(
      /JSON answer\(s\) are labelled otherwise: .* text\/plain; charset=utf-8/,
    );
    expect(judged.find((c) => c.id === 'resources.numbers.safe-integers')?.finding?.message).toMatch(
      /integer\(s\) beyond 2\^53 − 1 in \/v1\/transactions/,
    );
    expect(result.totals.failed).toBe(0);
    expect(result.exitCode).toBe(0);
    expect(result.verdict.status).toBe('INCOMPLETE');
  });

  it('finds nothing in the HAR of a clean run, and says the rest was not exercised: INCOMPLETE, never CONFORMANT', async () => {
    // A run without the webhooks suite has no receiver: its HAR holds no delivery (test/cli/judge-deliveries.test.ts).
    expect(await readFile(cleanHar, 'utf8')).not.toContain('"_delivery"');
    const result = await judge({ file: cleanHar, ...quiet });
    expect(result.totals).toMatchObject({ failed: 0, warned: 0, errored: 0 });
    expect(result.checks.filter((c) => c.outcome === 'pass').map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'resources.responses.json-type',
        'resources.numbers.safe-integers',
        'resources.errors.body',
        'resources.timestamps.unix',
        'pagination.meta.present',
      ]),
    );
    // A check that can judge traffic but found none of its kind here (no USSD view in a resources run) says so.
    const notExercised = 'not exercised: it needs requests of its own, which recorded traffic does not hold';
    for (const c of result.checks.filter((x) => x.outcome === 'skip' && x.skipReason !== notExercised))
      expect(c.skipReason).toMatch(/^the traffic holds (no|fewer than) /);
    // Every check without an observe facet, and only those.
    const observing = new Set(pack.suites.flatMap((s) => s.checks.filter((c) => c.observe).map((c) => c.id)));
    expect(result.checks.filter((c) => c.skipReason === notExercised).map((c) => c.id)).toEqual(
      result.checks.map((c) => c.id).filter((id) => !observing.has(id)),
    );
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(result.verdict.exercised).toBeGreaterThan(0);
    expect(result.exitCode).toBe(0);
  });

  it('judging traffic none of which is for the target judges nothing: INCOMPLETE, and says what was left out', async () => {
    const notes: string[] = [];
    const result = await judge({
      file: cleanHar,
      baseUrl: 'https://elsewhere.example/v1',
      onNote: (l) => notes.push(l),
    });
    expect(result.totals.passed + result.totals.warned + result.totals.failed).toBe(0);
    expect(result.verdict.status).toBe('INCOMPLETE');
    expect(notes.join('\n')).toMatch(/entries to other hosts left out: none is for https:\/\/elsewhere\.example\/v1/);
  });

  it('writes a JSON report that the report schema accepts, an observed exchange without a time too', async () => {
    const json = join(dir, 'judged.json');
    await judge({ file: faultyHar, json, ...quiet });
    expect(reportSchemaErrors(JSON.parse(await readFile(json, 'utf8')))).toBeUndefined();

    // A hand-made HAR whose entries carry no startedDateTime (HAR 1.2 requires one; tools forget): no time is made up.
    const har = JSON.parse(await readFile(faultyHar, 'utf8')) as { log: { entries: Array<Record<string, unknown>> } };
    for (const e of har.log.entries) delete e.startedDateTime;
    const timeless = join(dir, 'timeless.har');
    await writeFile(timeless, JSON.stringify(har));
    const json2 = join(dir, 'timeless.json');
    const harOut = join(dir, 'timeless-out.har');
    const result = await judge({ file: timeless, json: json2, har: harOut, ...quiet });
    // HAR 1.2 requires a startedDateTime: the written HAR gives the run's start and says so.
    const written = JSON.parse(await readFile(harOut, 'utf8')) as {
      log: { entries: Array<{ startedDateTime: string; comment?: string }> };
    };
    expect(written.log.entries.length).toBeGreaterThan(0);
    for (const e of written.log.entries) {
      expect(e.startedDateTime).toBe(result.run.startedAt);
      expect(e.comment).toBe("observed traffic without a time: startedDateTime is the run's start");
    }
    const cited = result.checks.flatMap((c) => c.exchanges);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((e) => e.startedAt === undefined)).toBe(true);
    expect(reportSchemaErrors(JSON.parse(await readFile(json2, 'utf8')))).toBeUndefined();
  });

  it('refuses a truncated and a hand-broken HAR with a HarError, and a HAR that shows no one base URL', async () => {
    const text = await readFile(cleanHar, 'utf8');
    const truncated = join(dir, 'truncated.har');
    await writeFile(truncated, text.slice(0, Math.floor(text.length / 2)));
    await expect(judge({ file: truncated, ...quiet })).rejects.toBeInstanceOf(HarError);
    const broken = join(dir, 'broken.har');
    await writeFile(broken, JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 42 } }] } }));
    await expect(judge({ file: broken, ...quiet })).rejects.toBeInstanceOf(HarError);
    const twoApis = join(dir, 'two.har');
    const har = JSON.parse(text) as { log: { entries: Array<{ request: { url: string } }> } };
    har.log.entries[0]!.request.url = 'https://other.example/v2/instruments';
    await writeFile(twoApis, JSON.stringify(har));
    await expect(judge({ file: twoApis, ...quiet })).rejects.toThrow(
      /cannot tell the API's base URL from the HAR \(2 candidates: .*\); pass --target NAME or --base-url URL/,
    );
    await expect(judge({ file: twoApis, ...quiet })).rejects.toBeInstanceOf(UserError);
    await expect(judge({ file: cleanHar, config: 'conformance.config.json', ...quiet })).rejects.toThrow(
      '--config names the file of --target NAME: give --target too',
    );
    await expect(
      judge({ file: cleanHar, target: 'staging', baseUrl: 'https://a.example/v1', ...quiet }),
    ).rejects.toThrow('give --target or --base-url, not both');
  });

  it('from the command line: a truncated HAR exits 2 with one line, --side client needs a target, a judged HAR exits 0', async () => {
    const text = await readFile(cleanHar, 'utf8');
    const truncated = join(dir, 'cut.har');
    await writeFile(truncated, text.slice(0, 1000));
    const cut = await runCli(['judge', truncated]);
    expect(cut.code).toBe(2);
    expect(cut.stdout).toBe('');
    expect(cut.stderr.trim().split('\n')).toHaveLength(1);
    expect(cut.stderr).toMatch(/CONFORMANCE_ERR_HAR/);

    const side = await runCli(['judge', cleanHar, '--side', 'client']);
    expect(side.code).toBe(2);
    expect(side.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--side client: .*give --target NAME/)]);

    const ok = await runCli(['judge', cleanHar, '--reporter', 'dot']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/INCOMPLETE/);
  });
});
