// Text a server controls, made safe to show: characters that could drive a terminal or break XML, as escapes. Its own
// module so that src/cli/main.ts (every error line) loads it without the report writers' code.

// Characters that could drive a terminal (ESC sequences, bidi overrides that reorder what a reviewer reads), are not
// legal in XML 1.0, or are lone surrogates. The server controls bodies and headers, so none of them may pass through raw.
const UNSAFE_KEEPING_NEWLINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/gu;
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/gu;

function escapeChar(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text with unsafe characters shown as `\u001b`-style escapes; newlines and tabs kept. */
export function visible(text: string): string {
  return text.replace(UNSAFE_KEEPING_NEWLINES, escapeChar);
}

/** Like `visible`, for text that must stay on one line (header values, messages). */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}
