// A worker thread of the detection matrix: the whole suite against some of the faults, one fresh reference server per
// fault, and their rows sent back. One thread per core, so a matrix of a hundred and more faults is not one core's work.
import { parentPort, workerData } from 'node:worker_threads';
import { suites } from '../../suites/index.js';
import { faultRows, type FaultRowData } from './detection.js';
import { FAULTS } from '../reference/faults/catalog.js';

const { faults, concurrency, webhookDeadlineMs } = workerData as {
  faults: string[];
  concurrency: number;
  webhookDeadlineMs?: number;
};
const rows = await faultRows(
  suites,
  FAULTS.filter((f) => faults.includes(f.name)),
  concurrency,
  webhookDeadlineMs,
);
const data: FaultRowData[] = rows.map(({ fault, ...rest }) => ({ name: fault.name, ...rest }));
parentPort!.postMessage(data);
