/**
 * Runs `work` over `items` with at most `concurrency` at a time; results in item order, whatever order they finish in.
 * When some work fails, the rest still runs to its end before the first failure in item order is thrown: nothing is
 * left in flight (a check's requests all answered before it ends), and which failure is reported does not depend on
 * timing.
 */
export async function pool<T, U>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<U>,
): Promise<U[]> {
  const settled: Array<PromiseSettledResult<U>> = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      try {
        settled[i] = { status: 'fulfilled', value: await work(items[i]!) };
      } catch (reason) {
        settled[i] = { status: 'rejected', reason };
      }
    }
  });
  await Promise.all(workers);
  return settled.map((s) => {
    if (s.status === 'rejected') throw s.reason;
    return s.value;
  });
}
