// One run of a matrix: the whole suite, --fail-on should, against a fresh reference server set up as asked.
import { runChecks, type RunResult, type SuiteDefinition } from '../engine/index.js';
import { startLocalTarget, type LocalTargetOptions } from '../targets/local.js';
import { pack } from '../../suites/index.js';

/**
 * How long a webhook check waits for a delivery: on loopback one arrives within milliseconds, and a short deadline keeps
 * the runs that withhold one (a fault, a delivery choice) from costing the default 10 s each. A test running a sample
 * beside other tests passes a longer one: on a busy machine a delivery can take seconds, and none of its runs waits one out.
 */
const MATRIX_WEBHOOK_DEADLINE_MS = 2_000;

export async function runAgainstLocal(
  suites: SuiteDefinition[],
  options: LocalTargetOptions,
  webhookDeadlineMs = MATRIX_WEBHOOK_DEADLINE_MS,
): Promise<RunResult> {
  const local = await startLocalTarget(options);
  try {
    return await runChecks({
      target: local.target,
      pack,
      suites,
      failOn: 'should',
      suiteOptions: { webhooks: { deadlineMs: webhookDeadlineMs } },
      notes: [`target: ${local.describe}`],
    });
  } finally {
    await local.stop();
  }
}
