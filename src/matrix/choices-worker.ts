// A worker thread of the choices matrix: the whole suite against some of the bundles, one fresh reference server each.
import { parentPort, workerData } from 'node:worker_threads';
import { suites } from '../../suites/index.js';
import { bundleRows, type Bundle } from './choices.js';

const { bundles, concurrency } = workerData as { bundles: Bundle[]; concurrency: number };
parentPort!.postMessage(await bundleRows(suites, bundles, concurrency));
