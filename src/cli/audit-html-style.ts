/** The style sheet of the HTML report: one constant, so that the page's CSP can allow it by hash. */
export const REPORT_CSS = `
:root { color-scheme: light; --error: #b3261e; --warning: #8a5a00; --info: #1f5f99; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1b1b1b; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; }
h3 { font-size: 15px; margin: 16px 0 6px; }
h3.error { color: var(--error); } h3.warning { color: var(--warning); } h3.info { color: var(--info); }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
#sizes-table caption, #links-table caption { position: static; width: auto; height: auto; clip-path: none; text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #f3f3f3; }
#summary-table { width: auto; } #summary-table thead { display: none; }
tr.none td { color: #777; font-style: italic; }
table[id^='findings-'] td:first-child code { white-space: nowrap; }
code { font: 12px ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
tr.error td:first-child { border-left: 4px solid var(--error); }
tr.warning td:first-child { border-left: 4px solid var(--warning); }
tr.info td:first-child { border-left: 4px solid var(--info); }
figure { margin: 8px 0; overflow-x: auto; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
svg .row { fill: #fafafa; stroke: #e4e4e4; }
svg .tick { stroke: #e0e0e0; }
svg .cap { stroke: #444; stroke-width: 1.5; stroke-dasharray: 5 4; }
svg .cap-label { font-weight: 600; }
svg .empty { fill: #777; font-style: italic; }
.dot { stroke-width: 1.5; fill-opacity: .75; }
.dot.est { fill-opacity: 0; }
.dot.embedded { fill: #2e7d32; stroke: #2e7d32; } .dot.linked { fill: #1565c0; stroke: #1565c0; }
.dot.in-parts { fill: #b26a00; stroke: #b26a00; } .dot.too-large { fill: #c62828; stroke: #c62828; }
.tag { padding: 0 6px; border-radius: 8px; color: #fff; white-space: nowrap; }
.tag.embedded, .tag.read, .tag.fetched { background: #2e7d32; } .tag.linked { background: #1565c0; }
.tag.in-parts, .tag.not-checked { background: #8a5a00; }
.tag.too-large, .tag.unresolved, .tag.read-failed { background: #b3261e; }
footer { margin-top: 32px; color: #666; font-size: 12px; }
`;
