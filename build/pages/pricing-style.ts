/**
 * The pricing page's only styles, inlined so the page makes no request beyond itself. Mobile first:
 * on narrow screens the tables become one card per row instead of scrolling sideways.
 */
export const PRICING_PAGE_CSS = `
:root{color-scheme:light;--ink:#1a1a1a;--muted:#555;--line:#d6d6d6;--accent:#1f5f99;--warn:#7a4100;--bg-soft:#f6f7f9}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;overflow-wrap:break-word;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
main,header,footer{max-width:72rem;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .5rem}
h2{font-size:1.35rem;margin:2.5rem 0 .75rem;padding-top:.75rem;border-top:2px solid var(--line)}
h3{font-size:1.05rem;margin:1.5rem 0 .5rem}
p{max-width:46rem}
a{color:var(--accent)}
a:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:var(--bg-soft);padding:0 .2em;border-radius:3px}
.lede{font-size:1.1rem}
.facts{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;padding:0;margin:1rem 0;list-style:none}
.facts li{background:var(--bg-soft);border-radius:6px;padding:.4rem .75rem}
nav ul{padding-left:1.2rem;columns:2 14rem}
.statement{border-left:4px solid var(--accent);background:var(--bg-soft);padding:.75rem 1rem;max-width:46rem;margin:0}
figure{margin:1rem 0}
figcaption{color:var(--muted);font-size:.9rem;max-width:46rem}
svg.chart{display:block;width:100%;max-width:32rem;height:auto;margin:.5rem 0}
dl.comparables{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:.5rem;margin:.5rem 0 1rem}
@media (min-width:60rem){.overview{display:grid;grid-template-columns:minmax(0,32rem) minmax(0,1fr);gap:2rem;align-items:start}.overview h3{margin-top:1rem}}
dl.comparables div{background:var(--bg-soft);border-radius:6px;padding:.5rem .75rem}
dl.comparables dt{font-size:.85rem;color:var(--muted)}
dl.comparables dd{margin:0;font-weight:600}
table{border-collapse:collapse;width:100%;margin:1rem 0;font-size:.95rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border-top:1px solid var(--line);padding:.6rem .5rem;text-align:left;vertical-align:top}
thead th{border-top:0;border-bottom:2px solid var(--line);font-size:.85rem;color:var(--muted)}
table.rows th[scope=row]{min-width:9rem}
blockquote{margin:0;padding:.1rem .75rem;border-left:3px solid var(--line);font-style:italic}
blockquote p{margin:.25rem 0;overflow-wrap:anywhere}
.product{font-weight:700}
.vendor,.small{color:var(--muted);font-size:.875rem}
.note{font-style:normal}
.price{font-weight:700;font-variant-numeric:tabular-nums}
.marker{display:inline-block;color:var(--warn);border:1px dashed var(--warn);background:#fff7ed;border-radius:4px;padding:0 .35rem;font-style:italic}
.nil{color:var(--muted);font-style:italic}
.url{overflow-wrap:anywhere;word-break:break-word}
.was{overflow-wrap:anywhere}
footer{color:var(--muted);font-size:.875rem;padding-bottom:2rem;margin-top:3rem}
@media (max-width:44rem){
  h1{font-size:1.5rem}
  table,thead,tbody,tr,th,td,caption{display:block}
  thead tr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  tbody tr{border:1px solid var(--line);border-radius:8px;margin:0 0 1rem;padding:.25rem .75rem}
  tbody th,tbody td{border:0;padding:.4rem 0;overflow-wrap:anywhere}
  tbody td::before{content:attr(data-label);display:block;font-size:.8rem;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
}
`
