// Matrices run the whole suite many times; one process's JavaScript runs on one core, so each matrix deals its items
// round-robin to one worker thread per core. A thread sends back its rows once and is ended at once, so no handle left
// open in it can keep the process alive.
import { Worker } from 'node:worker_threads';

/** Runs `worker` (a compiled module) on `threads` threads, each given `dataFor(share)`; the rows of all, in thread order. */
export async function rowsInThreads<T, R>(
  worker: URL,
  items: readonly T[],
  threads: number,
  dataFor: (share: T[]) => unknown,
): Promise<R[]> {
  const shares = Array.from({ length: threads }, (_, t) => items.filter((_, i) => i % threads === t)).filter(
    (s) => s.length > 0,
  );
  const rows = await Promise.all(
    shares.map(
      (share) =>
        new Promise<R[]>((resolve, reject) => {
          const thread = new Worker(worker, { workerData: dataFor(share) });
          thread.once('message', (data: R[]) => {
            resolve(data);
            void thread.terminate();
          });
          thread.once('error', reject);
          thread.once('exit', (code) =>
            reject(
              new Error(
                `a matrix worker (${worker.pathname.split('/').pop()}) ended with code ${code} before sending its rows`,
              ),
            ),
          );
        }),
    ),
  );
  return rows.flat();
}
