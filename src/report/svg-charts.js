'use strict';
// Bar charts as inline SVG, drawn here so the HTML report needs no script or library for
// them: one mark (a rect of class "mark") per row of data, whatever its value, with the
// row's label and value in a tooltip. They scale to the page's width (viewBox).
const { escapeKey } = require('./format');

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const shown = (s, n) => { const t = escapeKey(String(s)); return t.length > n ? `${t.slice(0, n - 1)}…` : t; };

/** rows: [{label, value, text}] (text: the value as shown). Horizontal bars, one per row. */
function barChart(id, title, rows) {
  const W = 420, LABEL = 118, VALUE = 74, ROW = 20, TOP = 4;
  const max = Math.max(0, ...rows.map((r) => r.value));
  const H = TOP * 2 + rows.length * ROW;
  const bars = rows.map((r, i) => {
    const y = TOP + i * ROW;
    const w = max > 0 ? ((W - LABEL - VALUE) * r.value) / max : 0;
    return `<g><title>${esc(escapeKey(r.label))}: ${esc(r.text)}</title>` +
      `<text class="lbl" x="${LABEL - 6}" y="${y + 14}" text-anchor="end">${esc(shown(r.label, 17))}</text>` +
      `<rect class="mark" data-label="${esc(escapeKey(r.label))}" data-value="${r.value}" x="${LABEL}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW - 6}"/>` +
      `<text class="val" x="${(LABEL + w + 4).toFixed(1)}" y="${y + 14}">${esc(r.text)}</text></g>`;
  }).join('');
  return `<figure class="chart"><figcaption>${esc(title)}</figcaption>` +
    `<svg data-chart="${esc(id)}" data-rows="${rows.length}" viewBox="0 0 ${W} ${H}" width="100%" preserveAspectRatio="xMinYMin meet" role="img" aria-label="${esc(title)}">${bars}</svg></figure>`;
}

/** Vertical columns along a time axis: rows [{label, value, text}], oldest first. */
function columnChart(id, title, rows) {
  const W = 420, H = 180, BOTTOM = 30, TOP = 8, SIDE = 22;
  const max = Math.max(0, ...rows.map((r) => r.value));
  const step = rows.length ? (W - 2 * SIDE) / rows.length : W;
  const every = Math.max(1, Math.ceil(rows.length / 8)); // at most 8 labels along the axis
  const cols = rows.map((r, i) => {
    const h = max > 0 ? ((H - BOTTOM - TOP) * r.value) / max : 0;
    const x = SIDE + i * step;
    const label = i % every === 0 ? `<text class="lbl" x="${(x + step / 2).toFixed(1)}" y="${H - BOTTOM + 14}" text-anchor="middle">${esc(shown(r.label, 8))}</text>` : '';
    return `<g><title>${esc(escapeKey(r.label))}: ${esc(r.text)}</title>` +
      `<rect class="mark" data-label="${esc(escapeKey(r.label))}" data-value="${r.value}" x="${(x + step * 0.1).toFixed(1)}" y="${(H - BOTTOM - h).toFixed(1)}" width="${(step * 0.8).toFixed(1)}" height="${h.toFixed(1)}"/>${label}</g>`;
  }).join('');
  return `<figure class="chart"><figcaption>${esc(title)}</figcaption>` +
    `<svg data-chart="${esc(id)}" data-rows="${rows.length}" viewBox="0 0 ${W} ${H}" width="100%" preserveAspectRatio="xMinYMin meet" role="img" aria-label="${esc(title)}">` +
    `<line class="axis" x1="0" y1="${H - BOTTOM}" x2="${W}" y2="${H - BOTTOM}"/>${cols}</svg></figure>`;
}

module.exports = { barChart, columnChart, esc };
