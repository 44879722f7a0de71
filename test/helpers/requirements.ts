// Requirement ids for the checks tests declare: real ids of the catalog, one level each, so a test check loads (and
// is level-checked) exactly like a suite's.
export const CITES = {
  MUST: ['REQ-SVC-01'],
  SHOULD: ['REQ-SVC-04'],
  INFO: ['REQ-HDR-19'],
} as const;
