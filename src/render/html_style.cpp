#include "render/html_style.h"

namespace gpucheck::render::html {

// No '<' or '&' in here: the page is also well-formed XML.
const char* stylesheet() {
  return R"css(
:root { --pass: #1b7f3b; --fail: #b3261e; --warn: #a15c00; --info: #1f5fa8; --skip: #666; --line: #d8d8d8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: #1d1d1f; background: #f6f6f4; }
main, .banner-inner, footer { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
.banner { color: #fff; padding: 22px 0 18px; }
.banner.pass { background: var(--pass); } .banner.fail { background: var(--fail); } .banner.warn { background: var(--warn); } .banner.info { background: var(--info); }
.banner-inner { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
.verdict { font-size: 40px; font-weight: 800; letter-spacing: 0.02em; line-height: 1.1; white-space: nowrap; }
.banner h1 { font-size: 20px; margin: 2px 0 6px; font-weight: 600; }
.banner p { margin: 3px 0; }
.banner .scope { font-size: 16px; font-weight: 600; }
.banner .meta { opacity: 0.9; font-size: 13px; }
.counts span { display: inline-block; background: rgba(255,255,255,0.18); border-radius: 10px; padding: 0 9px; margin: 4px 4px 0 0; font-size: 13px; }
nav { background: #fff; border-bottom: 1px solid var(--line); font-size: 14px; }
nav div { max-width: 1180px; margin: 0 auto; padding: 8px 20px; }
nav a { color: var(--info); margin-right: 16px; text-decoration: none; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 18px 0; padding: 6px 18px 14px; }
h2 { font-size: 18px; margin: 12px 0 10px; }
h3 { font-size: 16px; margin: 14px 0 6px; }
h4 { font-size: 14px; margin: 10px 0 4px; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
pre { background: #1e1e1e; color: #f2f2f2; padding: 10px 12px; border-radius: 6px; overflow-x: auto; white-space: pre; user-select: all; }
pre.plain { background: #f1f1ef; color: #1d1d1f; user-select: text; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.pill { display: inline-block; min-width: 52px; text-align: center; border-radius: 10px; padding: 0 8px; color: #fff;
  font-size: 12px; font-weight: 700; text-transform: uppercase; white-space: nowrap; overflow-wrap: normal;
  word-break: keep-all; }
.pill.pass { background: var(--pass); } .pill.fail, .pill.error { background: var(--fail); }
.pill.warn { background: var(--warn); } .pill.info { background: var(--info); } .pill.skip { background: var(--skip); }
.finding { border-left: 5px solid var(--skip); padding: 4px 0 6px 14px; margin: 14px 0; }
.finding.fail, .finding.error { border-color: var(--fail); } .finding.warn { border-color: var(--warn); }
.finding.info { border-color: var(--info); }
.finding h3 code { font-weight: 400; color: #555; }
.evidence { margin: 6px 0; display: grid; grid-template-columns: minmax(120px, max-content) 1fr; gap: 2px 14px; }
.evidence dt { color: #444; } .evidence dd { margin: 0; overflow-wrap: anywhere; }
.source { color: #777; font-size: 12px; }
.fixes li { margin: 6px 0; } .cost { color: #666; font-size: 13px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { background: #f1f1ef; font-weight: 600; }
td.num, th { white-space: nowrap; }
table.checks td:nth-child(2) { min-width: 11em; overflow-wrap: normal; }
td.metrics { min-width: 11em; overflow-wrap: normal; word-break: normal; }
.metrics { color: #333; font-size: 13px; }
details summary { cursor: pointer; color: var(--info); font-size: 13px; }
.chart-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 8px 24px; }
figure { margin: 10px 0 22px; min-width: 0; }
figcaption { color: #555; font-size: 13px; }
svg.chart { width: 100%; height: auto; max-width: 900px; display: block; background: #fff; }
footer { color: #666; font-size: 12px; padding-bottom: 30px; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main, .banner-inner, footer, nav div { padding: 0 10px; }
  .verdict { font-size: 30px; }
  .banner-inner { gap: 8px; }
  section { padding: 4px 10px 10px; }
  .facts, .evidence, .chart-grid { grid-template-columns: 1fr; }
  .facts dd, .evidence dd { margin-bottom: 6px; }
  table.checks thead { display: none; }
  table.checks, table.checks tbody, table.checks tr, table.checks td { display: block; width: 100%; }
  table.checks tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.checks td { border: 0; padding: 2px 0; }
}
)css";
}

}  // namespace gpucheck::render::html
