/** Runs `work` over `items` with at most `concurrency` at a time; results in item order, whatever order they finish in. */
export async function pool<T, U>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<U>,
): Promise<U[]> {
  const results: U[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}
