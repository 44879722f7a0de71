// The suite's state for one run.
import { type HttpResponse, type SharedStore } from '../../kit/index.js';

/**
 * The suite's life in one run: the fixture reads its checks share (fixture-reads.ts), and the unit of its timestamps,
 * once resources.info.timestamp-unit has learnt it.
 */
export interface ResourcesRun {
  reads: SharedStore<HttpResponse>;
  timestampUnit?: string;
}

export const newRun = (): ResourcesRun => ({ reads: new Map() });
