// The report's one stylesheet, inline under the page's Content-Security-Policy (html.ts hashes it). It reads on a
// 390 px phone without sideways scrolling of the page (wide tables scroll in their own box) and prints as the
// document a reviewer signs: the verdict and the run's identity on page 1, every failure's exchange, no navigation.
export const STYLE = `
:root { color-scheme: light; --fail: #b42318; --fail-bg: #fef3f2; --warn: #a15c07; --warn-bg: #fffaeb; --pass: #067647; --pass-bg: #ecfdf3;
  --error: #862e9c; --error-bg: #f8f0fc; --skip: #667085; --skip-bg: #f2f4f7; --line: #d0d5dd; --muted: #475467; --code-bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: #101828; background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 48px; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
h1 { margin: 0; font-size: 26px; }
h2 { font-size: 20px; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 2px solid #eaecf0; }
h3 { font-size: 16px; margin: 24px 0 8px; }
h4 { margin: 14px 0 6px; font-size: 13px; color: var(--muted); }
header { display: flex; justify-content: space-between; align-items: center; gap: 24px; flex-wrap: wrap; }
.subtitle { margin: 4px 0 0; color: var(--muted); }
.verdict-box { border-radius: 10px; padding: 10px 22px; text-align: center; border: 2px solid; }
.verdict-box.conformant { color: var(--pass); background: var(--pass-bg); }
.verdict-box.not-conformant { color: var(--fail); background: var(--fail-bg); }
.verdict-box.incomplete { color: var(--warn); background: var(--warn-bg); }
.verdict { margin: 0; font-size: 30px; font-weight: 800; letter-spacing: 0.06em; }
.because { margin: 0; font-size: 13px; }
span.fail { color: var(--fail); font-weight: 600; } span.warn { color: var(--warn); font-weight: 600; } span.error { color: var(--error); font-weight: 600; }
span.pass { color: var(--pass); } span.skip, span.zero { color: var(--skip); }
.cleanup { margin-top: 20px; padding: 12px 18px; border: 2px solid var(--fail); background: var(--fail-bg); color: var(--fail); border-radius: 8px; }
.cleanup h2 { margin: 0 0 6px; border: 0; font-size: 17px; }
.setup-problems { margin-top: 20px; padding: 12px 18px; border: 2px solid #dc6803; background: var(--warn-bg); border-radius: 8px; }
.setup-problems h2 { margin: 0 0 6px; border: 0; font-size: 17px; color: var(--warn); }
.setup-problems ul { margin: 0; padding-left: 18px; } .setup-problems p { margin: 2px 0; } .setup-problems .fix { font-weight: 600; }
.pill { display: inline-block; min-width: 62px; text-align: center; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; }
.pill.pass { color: var(--pass); background: var(--pass-bg); } .pill.fail { color: #fff; background: var(--fail); }
.pill.warn { color: #fff; background: #dc6803; } .pill.error { color: #fff; background: var(--error); } .pill.skip { color: var(--skip); background: var(--skip-bg); }
.check-id { font-weight: 700; font-size: 14px; }
.level { font-size: 12px; font-weight: 700; color: var(--muted); border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; }
.section { color: var(--muted); font-size: 13px; }
.section::before { content: "§ "; }
dl.evidence { display: grid; grid-template-columns: 86px 1fr; gap: 6px 12px; margin: 4px 0 0; }
dl.evidence dt { font: 600 12px/1.9 ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; color: var(--muted); text-transform: uppercase; text-align: right; }
dl.evidence dd { margin: 0; min-width: 0; }
dd > pre, dd > .curl-box > pre { padding: 6px 10px; border-radius: 6px; background: var(--code-bg); border: 1px solid #eaecf0; }
dd.spec > pre { font-family: inherit; font-size: 14px; font-style: italic; background: #f5f8ff; border-color: #c7d7fe; border-left: 4px solid #444ce7; }
dd.expected > pre { background: var(--pass-bg); border-color: #abefc6; border-left: 4px solid var(--pass); }
dd.observed > pre { background: var(--fail-bg); border-color: #fecdca; border-left: 4px solid var(--fail); }
details.warn dd.observed > pre { background: var(--warn-bg); border-color: #fedf89; border-left-color: #dc6803; }
dd.seen-by > pre { color: var(--muted); font-style: italic; }
pre.message { max-height: 26em; overflow: auto; }
.start-line { font-weight: 700; }
.curl-box { position: relative; }
dd > .curl-box > pre.curl { background: #101828; color: #f2f4f7; border-color: #101828; user-select: all; padding-right: 70px; }
button.copy { position: absolute; top: 5px; right: 6px; font: 600 12px system-ui, sans-serif; padding: 2px 10px; border-radius: 5px; border: 1px solid #98a2b3; background: #fff; cursor: pointer; }
ul.observations { margin: 8px 0 0; padding-left: 20px; color: var(--muted); font-size: 13px; }
ul.also-seen { margin: 4px 0 0; padding-left: 20px; color: var(--muted); font-size: 13px; font-style: italic; }
details.more { margin-top: 10px; } details.more > summary { cursor: pointer; color: var(--muted); font-size: 13px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); border-bottom: 2px solid #eaecf0; padding: 6px 8px; }
td { border-bottom: 1px solid #eaecf0; padding: 6px 8px; vertical-align: top; }
tr.fail td { background: var(--fail-bg); } tr.warn td { background: var(--warn-bg); } tr.error td { background: var(--error-bg); }
tr.fail a, tr.error a { color: var(--fail); font-weight: 700; }
td ul.observations { margin-top: 2px; }
.note { color: var(--muted); font-size: 13px; margin: 2px 0 0; }
.count { font-weight: 400; font-size: 13px; color: var(--muted); margin-left: 8px; }
.intro, .none { color: var(--muted); }
.known { margin: .4rem 0; padding: .3rem .6rem; background: var(--warn-bg, #fffaeb); border-left: 4px solid var(--warn, #dc6803); }
ul.choices { list-style: none; padding: 0; }
ul.choices > li { border: 1px solid #eaecf0; border-left: 4px solid #444ce7; border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
blockquote { margin: 6px 0; padding-left: 10px; border-left: 3px solid var(--line); color: var(--muted); font-style: italic; }
footer { margin-top: 40px; padding-top: 12px; border-top: 1px solid #eaecf0; color: var(--muted); font-size: 13px; }
.digest { font-size: 13px; color: #101828; background: var(--code-bg); padding: 1px 5px; border-radius: 4px; overflow-wrap: anywhere; }
.verdict-line { font-weight: 700; } .verdict-line.conformant { color: var(--pass); } .verdict-line.not-conformant { color: var(--fail); } .verdict-line.incomplete { color: var(--warn); }
main, section, article, dd, li, td, blockquote, summary { min-width: 0; overflow-wrap: anywhere; }
dl.identity { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 3px 18px; margin: 8px 0 0; padding: 12px 16px; background: #f9fafb; border: 1px solid #eaecf0; border-radius: 8px; }
dl.identity dt { color: var(--muted); } dl.identity dd { margin: 0; }
@media (max-width: 560px) {
  main { padding: 16px 12px 32px; }
  dl.identity { grid-template-columns: minmax(0, 1fr); } dl.identity dd { margin-bottom: 6px; }
  dl.evidence { grid-template-columns: minmax(0, 1fr); gap: 2px; } dl.evidence dt { text-align: left; line-height: 1.4; margin-top: 6px; }
  article.finding { padding: 0 10px 10px; border-left-width: 4px; }
}
nav.contents { margin: 24px 0 0; display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 14px; }
.table-scroll { overflow-x: auto; max-width: 100%; margin: 6px 0; }
.table-scroll > table { min-width: 560px; }
table.suite-summary { min-width: 0 !important; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.unexercised ul { margin: 0; padding-left: 18px; }
article.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 8px; margin: 14px 0; padding: 0 16px 12px; background: #fff; }
article.finding.fail { border-left-color: var(--fail); } article.finding.warn { border-left-color: #dc6803; } article.finding.error { border-left-color: var(--error); }
h3.finding-head { font-size: 15px; font-weight: 400; margin: 0; padding: 12px 0 8px; }
article.finding.fail h3.finding-head { color: var(--fail); } article.finding.fail .check-title { color: #101828; }
article.warn dd.observed > pre { background: var(--warn-bg); border-color: #fedf89; border-left-color: #dc6803; }
details.exchange, details.fold, details.group, details.suite { margin-top: 8px; }
details > summary { cursor: pointer; }
details.exchange > summary, details.fold > summary { color: var(--muted); font-size: 13px; font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
details.suite { border-top: 1px solid #eaecf0; padding: 6px 0; }
details.group > summary { padding: 4px 0; }
ul.quotes { list-style: none; margin: 0; padding: 0; } ul.quotes > li { margin: 0 0 4px; }
blockquote.quote { margin: 2px 0 0; padding: 4px 10px; border-left: 4px solid #444ce7; background: #f5f8ff; color: #101828; font-style: normal; }
blockquote code { font-size: 12.5px; background: var(--code-bg); padding: 0 3px; border-radius: 3px; font-style: normal; }
.md-row { display: inline-flex; flex-wrap: wrap; gap: 0; border: 1px solid #c7d7fe; border-radius: 4px; max-width: 100%; }
.md-cell { padding: 1px 8px; border-right: 1px solid #c7d7fe; } .md-cell:last-child { border-right: 0; }
.md-cell:first-child { font-weight: 600; }
ul.out-of-reach { list-style: none; padding: 0; } ul.out-of-reach > li { border: 1px solid #eaecf0; border-left: 4px solid var(--skip); border-radius: 6px; padding: 8px 14px; margin: 10px 0; }
p.why { margin: 4px 0 0; font-size: 14px; }
ul.run-notes { padding-left: 20px; } ul.run-notes li { margin: 2px 0; }
.print-only { display: none; }
.sign-lines { display: grid; grid-template-columns: 2fr 1fr 2fr; gap: 24px; margin-top: 48px; }
.sign-lines p { border-top: 1px solid #101828; padding-top: 4px; margin: 0; font-size: 13px; color: var(--muted); }
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { font-size: 9pt; line-height: 1.35; }
  main { max-width: none; padding: 0; }
  code, pre { font-size: 7.5pt; }
  h1 { font-size: 17pt; } h2 { font-size: 12.5pt; margin: 14px 0 6px; padding-bottom: 3px; } h3 { font-size: 10.5pt; margin: 10px 0 4px; }
  header { flex-wrap: nowrap; gap: 12px; }
  .verdict-box { padding: 4px 14px; } .verdict { font-size: 18pt; } .because { font-size: 8pt; }
  #verdict p { margin: 4px 0; }
  dl.identity { padding: 6px 10px; gap: 0 12px; margin-top: 4px; }
  dl.identity.options { grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr); }
  .digest { font-size: 7.5pt; }
  nav.contents, button.copy, details.more, details.suite { display: none; }
  .print-only { display: block; }
  #failures { break-before: page; }
  h2, h3, summary { break-after: avoid; }
  article.finding, tr, ul.out-of-reach > li, #sign-off, dl.identity { break-inside: avoid; }
  pre.message { max-height: none; overflow: visible; }
  .table-scroll { overflow: visible; }
  .table-scroll > table { min-width: 0; }
  a { color: inherit; text-decoration: none; }
}
`;
