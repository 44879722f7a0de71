// The spec as a list of its `##` and `###` sections with their text: what the requirement catalog's quotes are checked
// against (each quote stands in its section, word for word) and what `explain` names a requirement's place by.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../paths.js';

const SPEC_PATH = ['spec', 'investment-api.md'] as const;

export interface SpecSection {
  level: 2 | 3;
  heading: string;
  /** The `##` heading a `###` section sits under. */
  parent?: string;
  line: number;
  /** The section's own text, up to the next heading of any level. */
  body: string;
}

export function readSpec(file: string = fromPackageRoot(...SPEC_PATH)): string {
  return readFileSync(file, 'utf8');
}

/** Every `##` and `###` section of the spec in document order, with its text. */
export function parseSpec(markdown: string): SpecSection[] {
  const lines = markdown.split(/\r?\n/);
  const sections: SpecSection[] = [];
  let current: { section: SpecSection; bodyLines: string[] } | undefined;
  let parent: string | undefined;
  const finish = () => {
    if (!current) return;
    current.section.body = current.bodyLines.join('\n').trim();
    sections.push(current.section);
  };
  lines.forEach((line, index) => {
    const heading = /^(#{2,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      finish();
      const level = heading[1]!.length as 2 | 3;
      const name = heading[2]!;
      if (level === 2) parent = name;
      current = {
        section: { level, heading: name, ...(level === 3 && parent ? { parent } : {}), line: index + 1, body: '' },
        bodyLines: [],
      };
    } else if (/^#\s/.test(line)) {
      finish();
      current = undefined;
    } else {
      current?.bodyLines.push(line);
    }
  });
  finish();
  return sections;
}
