// `conformance verify-evidence DIR --public-key FILE`: the provider's side of `run --evidence`. Exit 0 verified,
// 1 not verified (a file changed, another key signed), 2 when the check cannot be made (see evidence/verify.ts).
import { readFile } from 'node:fs/promises';
import { relative, resolve, isAbsolute } from 'node:path';
import { ConfigError } from '../errors.js';
import { parsePublicKey, verifyEvidence } from '../evidence/verify.js';
import { MANIFEST, type EvidenceManifest } from '../evidence/package.js';
import { visibleLine } from '../report/exchange-text.js';
import { failOnText } from '../report/verdict-text.js';

export interface VerifyEvidenceOptions {
  publicKey: string;
}

export async function verifyEvidenceCommand(
  dir: string,
  opts: VerifyEvidenceOptions,
  out: { write(s: string): unknown } = process.stdout,
): Promise<number> {
  let keyText: string;
  try {
    keyText = await readFile(opts.publicKey, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `--public-key ${opts.publicKey} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      'CONFORMANCE_ERR_OPTION_FILE',
    );
  }
  const key = parsePublicKey(keyText, `--public-key ${opts.publicKey}`);
  const verdict = await verifyEvidence(dir, key);

  // Names come from the package, which may be hostile: shown with control characters escaped.
  const width = Math.max(
    MANIFEST.length,
    ...verdict.files.map((f) => f.name.length),
    ...verdict.unlisted.map((n) => n.length),
  );
  const line = (mark: string, name: string, text: string) =>
    out.write(`${mark} ${visibleLine(name).padEnd(width)}  ${visibleLine(text)}\n`);
  const keyId = verdict.keyId !== undefined ? ` (the package names keyid ${JSON.stringify(verdict.keyId)})` : '';
  // A manifest whose signature does not verify vouches for nothing: the verdict comes first, and a file that matches
  // its digest gets no ✓ (only a file that differs from it, or is missing, is worth naming).
  const signed = verdict.signature.ok;
  if (!signed) out.write(`${visibleLine(verdict.summary)}\n`);
  // Unsigned, the reason is in the verdict just above; the line adds the keyid the package names.
  line(signed ? '✓' : '✗', MANIFEST, `${signed ? verdict.signature.detail : 'not verified'}${keyId}`);
  for (const file of verdict.files) if (signed || !file.ok) line(file.ok ? '✓' : '✗', file.name, file.detail);
  const matching = verdict.files.filter((f) => f.ok).length;
  if (!signed && matching > 0) {
    const which = matching === verdict.files.length ? 'the' : 'the other';
    out.write(
      `· ${which} ${matching} listed file${matching === 1 ? ' matches its digest' : 's match their digests'} in the manifest, which proves nothing while the manifest's signature does not verify\n`,
    );
  }
  for (const name of verdict.unlisted) line('·', name, 'not in the manifest: not covered by the signature');
  if (insideDir(dir, opts.publicKey)) {
    out.write(
      'note: the public key comes from the package itself: this shows the files are unchanged since signing, not who signed them; use the key the partner registered\n',
    );
  }
  if (signed) out.write(`${visibleLine(verdict.summary)}\n`);
  // Only a verified manifest's verdict is worth reading: it is signed with the files it sums up.
  if (verdict.ok && verdict.manifest)
    for (const text of runVerdictLines(verdict.manifest)) out.write(`${visibleLine(text)}\n`);
  return verdict.ok ? 0 : 1;
}

/** What the signed manifest says the run showed: its verdict with the fail-on policy, and what would exercise the rest. */
function runVerdictLines(manifest: EvidenceManifest): string[] {
  const v = manifest.verdict;
  if (typeof v?.summary !== 'string')
    return [
      'verdict: not recorded (the package was made by a version of conformance before verdicts; report.json has the results)',
    ];
  const policy = manifest.failOn
    ? ` (fail-on ${failOnText({ failOn: manifest.failOn, failOnIncomplete: manifest.failOnIncomplete === true })})`
    : '';
  const remedies = Array.isArray(v.notExercised)
    ? [...new Set(v.notExercised.flatMap((r) => String(r?.remedy).split('; ')))]
    : [];
  return [
    `verdict: ${v.summary}${policy}`,
    ...(remedies.length > 0 ? [`  to exercise the rest: ${remedies.join('; ')}`] : []),
  ];
}

function insideDir(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
