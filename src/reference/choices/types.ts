// What a choice of the reference server is: one open point of the spec (an OPEN requirement of the catalog, or
// behaviour a live server shows that the spec is silent on), and every reading a reasonable server may take of it.
// The first value is the default (the strict server's reading). The whole suite must pass, 0 failures and 0 warnings,
// with every choice in every position: docs/choices-matrix.md proves it.

export interface ChoiceValue {
  readonly value: string;
  /** One line: what the server does with this value. */
  readonly says: string;
  /**
   * The readings of the choice's OPEN requirements (spec/requirements.json `readings`, word for word) this value
   * realizes. The gate in test/reference/choices.test.ts holds that every reading of every open point is realized by some value.
   */
  readonly realizes: readonly string[];
  /**
   * A regular expression (source, case-insensitive) that an observation of the run must match when the server takes
   * this value: the INFO record that says which reading the server chose. The choices matrix checks it.
   */
  readonly recorded: string;
}

export interface ChoiceDef {
  /** The catalog ids of the open points this choice realizes (OPEN entries, or the requirement whose reading is open). */
  readonly requirements: readonly string[];
  /** For behaviour the spec does not mention at all (a connection closed between requests): where it is allowed. */
  readonly basis?: string;
  /** Every reading; the first is the default. */
  readonly values: readonly ChoiceValue[];
  /**
   * Other choices' readings under which no run can tell this choice's reading (one live token per client hides how
   * far a revocation reaches), with the observation (regex source) that says so: there it stands for the record.
   */
  readonly hiddenBy?: ReadonlyArray<{ readonly choice: string; readonly value: string; readonly recorded: string }>;
}
