// Secrets never reach a report: known secret strings are replaced wherever they occur, and fields that carry
// credentials by their nature (Authorization, Signature, token/secret JSON members, form fields) are masked even when
// the value was never registered, e.g. a token a server issued to a check.
const REDACTED = '[redacted]';

const SECRET_JSON_MEMBER =
  /("(?:token|accessToken|access_token|refreshToken|refresh_token|clientSecret|client_secret|privateKey|private_key|secret|password)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi;
const SECRET_FORM_FIELD = /(^|[&?])((?:clientSecret|client_secret|token|access_token|password)=)([^&]*)/gi;
const MIN_SECRET_LENGTH = 4;
// An Ed25519 signature as a structured-field byte sequence (64 bytes: 86 base64 characters and "=="), wherever a server
// echoes it: it would let anyone replay the request until it expires. A SHA-512 digest has the same length, and is no
// secret; a digest carries its algorithm name just before it.
const SIGNATURE_BYTES = /(?<!sha-512=):[A-Za-z0-9+/]{86}==:/gi;

export class Redactor {
  private readonly secrets = new Set<string>();
  /** The secrets longest first, made again only after a new one is added: text() runs for every recorded header and body. */
  private longestFirst: string[] | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; its URL-encoded and JSON-escaped forms are masked too. */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) return;
    // Crash output is masked with every secret of the process (main.ts has no run at hand when it prints).
    if (this !== processRedactor) processRedactor.add(secret);
    this.longestFirst = undefined;
    this.secrets.add(secret);
    this.secrets.add(encodeURIComponent(secret));
    this.secrets.add(new URLSearchParams({ s: secret }).toString().slice(2));
    this.secrets.add(JSON.stringify(secret).slice(1, -1));
    // A PEM is also masked line by line, in case only part of it is echoed.
    if (secret.includes('-----BEGIN')) {
      for (const line of secret.split('\n')) if (line.length >= 16 && !line.startsWith('-----')) this.secrets.add(line);
    }
  }

  /** Registers the credentials a text carries in credential fields (a token in a body), without masking anything. */
  learn(input: string): void {
    for (const m of input.matchAll(SECRET_JSON_MEMBER)) this.add(m[2]);
    for (const m of input.matchAll(SECRET_FORM_FIELD)) this.add(decodeFormValue(m[3] ?? ''));
  }

  text(input: string): string {
    let out = input.replace(SIGNATURE_BYTES, `:${REDACTED}:`);
    out = out.replace(SECRET_JSON_MEMBER, (_m, open: string, value: string, close: string) => {
      this.add(value);
      return `${open}${REDACTED}${close}`;
    });
    out = out.replace(SECRET_FORM_FIELD, (_m, sep: string, key: string, value: string) => {
      this.add(decodeFormValue(value));
      return `${sep}${key}${REDACTED}`;
    });
    return this.registeredMasked(out);
  }

  /**
   * `input` with the registered secrets masked, and nothing else: a value kept as it came on purpose (a delivery's
   * Signature, src/traffic/delivery.ts) still never carries a secret of the run.
   */
  registeredMasked(input: string): string {
    // Longest first, so a secret that contains another is masked whole.
    this.longestFirst ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = input;
    for (const s of this.longestFirst) {
      if (out.includes(s)) out = out.split(s).join(REDACTED);
    }
    return out;
  }

  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const scheme = /^\s*(\S+)\s+/.exec(value)?.[1];
      return scheme ? `${scheme} ${REDACTED}` : REDACTED;
    }
    // A signature would let anyone replay the request until it expires.
    if (lower === 'signature') return value.replace(/:[A-Za-z0-9+/=_-]*:/g, `:${REDACTED}:`);
    if (lower === 'cookie' || lower === 'set-cookie' || lower === 'proxy-authorization') return REDACTED;
    return this.text(value);
  }

  headers(headers: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
    return headers.map(([n, v]) => [n, this.header(n, v)]);
  }
}

/**
 * Knows every secret any Redactor of this process was given: what an internal error or a crash prints is masked with
 * it (src/cli/main.ts).
 */
export const processRedactor: Redactor = new Redactor();

function decodeFormValue(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
