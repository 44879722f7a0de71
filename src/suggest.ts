// "Did you mean": what a mistyped check id, target name or config field most likely meant.

/** Ids containing the input, else those nearest by edit distance (also ignoring the suite prefix), best first. */
export function closestIds(input: string, ids: readonly string[], max = 5): string[] {
  const wanted = input.toLowerCase();
  if (wanted === '') return [];
  const containing = ids.filter((id) => id.toLowerCase().includes(wanted));
  if (containing.length > 0) return containing.slice(0, max);
  const scored = ids
    .map((id) => ({
      id,
      distance: Math.min(editDistance(wanted, id.toLowerCase()), editDistance(wanted, withoutSuite(id))),
    }))
    .filter((s) => s.distance <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id));
  return scored.slice(0, max).map((s) => s.id);
}

/** `signing.reject.expired` → `reject.expired`: a user often leaves the suite out. */
function withoutSuite(id: string): string {
  return id.toLowerCase().split('.').slice(1).join('.');
}

/** Levenshtein distance: the one edit distance of the project. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate a mistyped word most likely meant (case aside, within a third of its length and at most 2 edits). */
export function closestWord(word: string, candidates: string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance <= Math.min(2, Math.floor(name.length / 3)) && (!best || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}
