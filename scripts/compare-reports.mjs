#!/usr/bin/env node
// Compares two JSON reports of clean runs, timings and per-run values aside (tokens, signatures, ids, clocks): the
// check ids, outcomes, findings, observations, and each check's requests and answers' statuses must be equal. Used
// to show that a change that should move code only changed no result (issue 16's acceptance).
// usage: node scripts/compare-reports.mjs BEFORE.json AFTER.json   (exit 1 with the differences)
import { readFileSync } from 'node:fs';

const VOLATILE = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[A-Za-z0-9_-]{24,}={0,2}/g, '<opaque>'],
  [/\b\d+(\.\d+)?\s?(ms|s)\b/g, '<time>'],
  [/\b\d{4}-\d{2}-\d{2}T[\d:.]+Z\b/g, '<date>'],
  [/\b1\d{9}\b/g, '<epoch>'],
  [/:\d{4,5}\b/g, ':<port>'],
];
const plain = (t) => VOLATILE.reduce((s, [re, to]) => s.replace(re, to), String(t));

function shape(report) {
  return {
    totals: report.totals,
    verdict: { ...report.verdict },
    selection: report.run.selection,
    cleanup: (report.run.cleanup ?? []).map(plain),
    notes: (report.run.notes ?? []).map(plain),
    checks: report.checks.map((c) => ({
      id: c.id,
      title: c.title,
      suite: c.suite,
      level: c.level,
      requirements: c.requirements.map((r) => r.id),
      outcome: c.outcome,
      finding: c.finding && plain(c.finding.message),
      skipReason: c.skipReason && plain(c.skipReason),
      observations: c.observations.map(plain),
      exchanges: c.exchanges.map(
        (e) =>
          `${e.request.method} ${plain(new URL(e.request.url).pathname)} → ${e.response?.status ?? e.error ?? '-'}`,
      ),
    })),
    sessionExchanges: report.sessionExchanges.map(
      (e) => `${e.request.method} ${new URL(e.request.url).pathname} → ${e.response?.status ?? '-'}`,
    ),
  };
}

const [before, after] = process.argv.slice(2).map((f) => shape(JSON.parse(readFileSync(f, 'utf8'))));
if (!before || !after) {
  console.error('usage: node scripts/compare-reports.mjs BEFORE.json AFTER.json');
  process.exit(2);
}
const diffs = [];
const walk = (a, b, path) => {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.forEach((x, i) => walk(x, b[i], `${path}[${i}]`));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${path}.${k}`);
    return;
  }
  diffs.push(`${path}:\n  before: ${JSON.stringify(a)?.slice(0, 400)}\n  after:  ${JSON.stringify(b)?.slice(0, 400)}`);
};
walk(before, after, 'report');
if (diffs.length === 0) {
  console.log(
    `equal: ${after.checks.length} checks, same outcomes, findings, observations and exchanges (timings and per-run values aside)`,
  );
} else {
  console.log(diffs.join('\n'));
  console.log(`${diffs.length} difference(s)`);
  process.exit(1);
}
