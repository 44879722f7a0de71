// What the webhooks suite tests share: local targets and servers started by a test, stopped after it, last first.
import { afterEach } from 'vitest';
import { startLocalTarget, type LocalTarget } from '../../src/targets/local.js';

export type Stops = Array<() => Promise<void>>;

/** A list of stops, emptied after each test of the file that calls this. */
export function stopsAfterEach(): Stops {
  const stops: Stops = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  return stops;
}

/** The built-in local target (reference server and its client), stopped after the test. */
export async function localTarget(
  stops: Stops,
  options: Parameters<typeof startLocalTarget>[0] = {},
): Promise<LocalTarget> {
  const l = await startLocalTarget(options);
  stops.push(l.stop);
  return l;
}
