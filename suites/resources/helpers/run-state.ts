// The suite's state for one run.

/** The suite's life in one run: the unit of its timestamps, once resources.info.timestamp-unit has learnt it. */
export interface ResourcesRun {
  timestampUnit?: string;
}
