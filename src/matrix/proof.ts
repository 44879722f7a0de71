// docs/detection-matrix.json: which faults of the reference server prove each check can fail. Written by the matrix
// generator next to the Markdown; `conformance explain` reads it from the package instead of importing the reference
// server, so explaining a check never loads (or depends on) the server.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../paths.js';

const DETECTION_JSON_PATH = ['docs', 'detection-matrix.json'] as const;

export interface DetectionJson {
  $comment: string;
  /** The whole suite against the clean reference server, in each variant: its totals. */
  clean: Record<string, { passed: number; failed: number; warned: number; skipped: number; errored: number }>;
  /**
   * Every fault of the catalog, in catalog order: the requirements it breaks, the checks citing them that caught it,
   * and the checks that failed collaterally (citing none of them), with the reason each stays.
   */
  faults: Array<{
    name: string;
    suite: string;
    description: string;
    breaks: string[];
    caughtBy: string[];
    collateral: Array<{ id: string; reason?: string }>;
  }>;
  /** MUST and SHOULD checks no fault makes fail, with the reason (docs/detection-reasons.json). */
  uncaught: Array<{ id: string; level: string; reason?: string }>;
}

/** The shipped matrix, or undefined when the file is missing or unreadable (an install without docs/). */
export function readDetectionJson(file: string = fromPackageRoot(...DETECTION_JSON_PATH)): DetectionJson | undefined {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as DetectionJson;
    return Array.isArray(doc.faults) && Array.isArray(doc.uncaught) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** The shipped client matrix (docs/client-matrix.json), or undefined when missing or unreadable. */
export function readClientMatrix(
  file: string = fromPackageRoot('docs', 'client-matrix.json'),
): { rows: Array<{ name: string; description: string; caughtBy: string[] }> } | undefined {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { rows?: unknown };
    return Array.isArray(doc.rows)
      ? (doc as { rows: Array<{ name: string; description: string; caughtBy: string[] }> })
      : undefined;
  } catch {
    return undefined;
  }
}
