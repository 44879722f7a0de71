// What `conformance judge` finds in the traffic of a matrix run: the run's own HAR, judged as a user's would be. Against
// the reference server read any way the spec leaves open, the server is correct, so anything the judge fails or warns
// on is a defect of a check's observe facet (a reading it did not think of), reported as a problem of the row.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../engine/index.js';
import { judge } from '../judge-api.js';
import { harText } from '../report/har.js';

export async function judgedTrafficProblems(result: RunResult): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-matrix-judge-'));
  try {
    const file = join(dir, 'run.har');
    await writeFile(file, harText(result));
    const judged = await judge({ file, baseUrl: result.run.baseUrl, onNote: () => undefined });
    return judged.checks
      .filter((c) => c.outcome === 'fail' || c.outcome === 'warn' || c.outcome === 'error')
      .map((c) => `judged from the run's HAR: ${c.id} ${c.outcome}: ${c.finding?.message ?? ''}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
