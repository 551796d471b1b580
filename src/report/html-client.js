'use strict';
// The script of the HTML report, run in the reader's browser: the treemap of the folder
// tree (drawn at the page's own width, clicked into and back out of) and sortable tables.
// It is inlined into the page as text (Function.prototype.toString), so it must not refer
// to anything outside itself; it builds every element with the DOM and sets text with
// textContent, never markup, since keys are data. It runs as plain ES5-era browser code.

/* eslint-disable no-var */
function s3blitzReport(document, data) {
  var SVGNS = 'http://www.w3.org/2000/svg';
  // A node of the tree as the page carries it (compact: see html-data.js).
  var NAME = 0, OBJECTS = 1, BYTES = 2, FILES_OBJECTS = 5, FILES_BYTES = 6, OTHER_OBJECTS = 7, OTHER_BYTES = 8, CHILDREN = 9;

  function human(n) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'], u = 0, v = n;
    while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return u === 0 ? v + ' B' : (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) + ' ' + units[u];
  }
  function count(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function el(ns, tag, attrs) {
    var e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    return e;
  }

  // Squarified treemap (Bruls, Huizing, van Wijk): rows of cells laid along the shorter
  // side, each row kept while it makes the worst aspect ratio better.
  function squarify(items, x, y, w, h) {
    var total = 0, out = [], i;
    for (i = 0; i < items.length; i++) total += items[i].bytes;
    if (!total || w <= 0 || h <= 0) return out;
    var scale = (w * h) / total, rest = items.slice();
    function worst(row, side) {
      var s = 0, max = 0, min = Infinity;
      for (var j = 0; j < row.length; j++) { var a = row[j].bytes * scale; s += a; if (a > max) max = a; if (a < min) min = a; }
      return Math.max((side * side * max) / (s * s), (s * s) / (side * side * min));
    }
    while (rest.length) {
      var side = Math.min(w, h), row = [rest.shift()];
      while (rest.length && worst(row.concat([rest[0]]), side) <= worst(row, side)) row.push(rest.shift());
      var area = 0;
      for (i = 0; i < row.length; i++) area += row[i].bytes * scale;
      var thick = area / side, pos = 0;
      for (i = 0; i < row.length; i++) {
        var len = (row[i].bytes * scale) / thick;
        if (w >= h) out.push({ item: row[i], x: x, y: y + pos, w: thick, h: len });
        else out.push({ item: row[i], x: x + pos, y: y, w: len, h: thick });
        pos += len;
      }
      if (w >= h) { x += thick; w -= thick; } else { y += thick; h -= thick; }
    }
    return out;
  }

  // The cells of a folder: its subfolders, the files directly in it, and (other): what
  // the subfolders past the tree's size limit hold. Cells of 0 bytes have no area.
  function cellsOf(node) {
    var out = [], kids = node[CHILDREN] || [];
    for (var i = 0; i < kids.length; i++) if (kids[i][BYTES] > 0) out.push({ kind: 'folder', node: kids[i], name: kids[i][NAME], bytes: kids[i][BYTES], objects: kids[i][OBJECTS] });
    if (node[FILES_BYTES] > 0) out.push({ kind: 'files', name: '(files here)', bytes: node[FILES_BYTES], objects: node[FILES_OBJECTS] });
    if (node[OTHER_BYTES] > 0) out.push({ kind: 'other', name: '(other)', bytes: node[OTHER_BYTES], objects: node[OTHER_OBJECTS] });
    out.sort(function (a, b) { return b.bytes - a.bytes; });
    return out;
  }

  var svg = document.getElementById('treemap');
  var crumbs = document.getElementById('tm-crumbs');
  var up = document.getElementById('tm-up');
  var caption = document.getElementById('tm-caption');
  var stack = data.tree ? [data.tree] : [];

  function pathOf(depth) {
    var p = '';
    for (var i = 0; i <= depth; i++) p += stack[i][NAME];
    return p;
  }

  function drill(node) { stack.push(node); render(); }
  function back(depth) { stack.length = depth + 1; render(); }

  function render() {
    if (!svg || !stack.length) return;
    var node = stack[stack.length - 1];
    var width = Math.max(280, Math.floor(svg.parentNode.getBoundingClientRect().width || 800));
    var height = Math.round(Math.min(560, Math.max(260, width * 0.55)));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.setAttribute('data-path', pathOf(stack.length - 1));
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var cells = squarify(cellsOf(node), 0, 0, width, height);
    for (var i = 0; i < cells.length; i++) {
      var c = cells[i], it = c.item;
      var canDrill = it.kind === 'folder' && (it.node[CHILDREN] || it.node[OTHER_BYTES] > 0);
      var g = el(SVGNS, 'g', { 'class': 'cell ' + it.kind + (canDrill ? ' drill' : ''), 'data-name': it.name, 'data-bytes': it.bytes });
      if (canDrill) { g.setAttribute('tabindex', '0'); g.setAttribute('role', 'button'); }
      var hue = (i * 47 + stack.length * 23) % 360;
      var rect = el(SVGNS, 'rect', {
        'class': 'mark', x: c.x.toFixed(1), y: c.y.toFixed(1), width: Math.max(0, c.w - 1).toFixed(1), height: Math.max(0, c.h - 1).toFixed(1),
        fill: it.kind === 'folder' ? 'hsl(' + hue + ',55%,72%)' : it.kind === 'files' ? '#cfd4da' : '#eef0f2',
      });
      var tip = el(SVGNS, 'title', {});
      tip.textContent = pathOf(stack.length - 1) + (it.kind === 'folder' ? it.name : ' ' + it.name) + ': ' + human(it.bytes) + ', ' + count(it.objects) + ' objects' + (canDrill ? ' (click to open)' : '');
      g.appendChild(tip);
      g.appendChild(rect);
      // A folder's own subfolders, drawn inside it (one level: the picture, not more cells).
      var nested = it.kind === 'folder' && c.w > 60 && c.h > 40;
      if (nested) {
        var inner = squarify(cellsOf(it.node), c.x + 3, c.y + 18, c.w - 7, c.h - 22);
        for (var s = 0; s < inner.length; s++) {
          var sc = inner[s];
          g.appendChild(el(SVGNS, 'rect', {
            'class': 'sub', x: sc.x.toFixed(1), y: sc.y.toFixed(1), width: Math.max(0, sc.w - 1).toFixed(1), height: Math.max(0, sc.h - 1).toFixed(1),
            fill: sc.item.kind === 'folder' ? 'hsl(' + hue + ',45%,' + (62 + (s % 3) * 6) + '%)' : sc.item.kind === 'files' ? '#c4c9cf' : '#e4e7ea',
          }));
          if (sc.w > 40 && sc.h > 14) {
            var subChars = Math.floor((sc.w - 6) / 6), subFull = sc.item.name + ' ' + human(sc.item.bytes);
            var subLabel = el(SVGNS, 'text', { x: (sc.x + 3).toFixed(1), y: (sc.y + 11).toFixed(1), 'class': 'sub-label' });
            subLabel.textContent = subFull.length <= subChars ? subFull : sc.item.name.length > subChars ? sc.item.name.slice(0, Math.max(1, subChars - 1)) + '…' : sc.item.name;
            g.appendChild(subLabel);
          }
        }
      }
      if (c.w > 46 && c.h > 16) {
        var chars = Math.floor((c.w - 8) / 6.5);
        var full = it.name + '  ' + human(it.bytes);
        var label = el(SVGNS, 'text', { x: (c.x + 4).toFixed(1), y: (c.y + 13).toFixed(1) });
        label.textContent = full.length <= chars ? full : it.name.length > chars ? it.name.slice(0, Math.max(1, chars - 1)) + '…' : it.name;
        g.appendChild(label);
        if (!nested && full.length > chars && c.h > 32) {
          var size = el(SVGNS, 'text', { x: (c.x + 4).toFixed(1), y: (c.y + 28).toFixed(1), 'class': 'size' });
          size.textContent = human(it.bytes);
          g.appendChild(size);
        }
      }
      if (canDrill) {
        (function (n) {
          g.addEventListener('click', function () { drill(n); });
          g.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); drill(n); } });
        })(it.node);
      }
      svg.appendChild(g);
    }
    while (crumbs.firstChild) crumbs.removeChild(crumbs.firstChild);
    for (var d = 0; d < stack.length; d++) {
      var b = el(null, 'button', { type: 'button', 'class': 'crumb', 'data-depth': d });
      b.textContent = d === 0 ? data.rootLabel || stack[0][NAME] || '(top)' : stack[d][NAME];
      if (d === stack.length - 1) b.setAttribute('aria-current', 'true');
      (function (depth) { b.addEventListener('click', function () { back(depth); }); })(d);
      crumbs.appendChild(b);
    }
    up.disabled = stack.length < 2;
    if (caption) caption.textContent = (stack.length > 1 ? pathOf(stack.length - 1) : data.rootLabel || '(top)') + ': ' + human(node[BYTES]) + ' in ' + count(node[OBJECTS]) + ' objects';
  }

  if (up) up.addEventListener('click', function () { if (stack.length > 1) back(stack.length - 2); });
  var timer = null;
  window.addEventListener('resize', function () { clearTimeout(timer); timer = setTimeout(render, 150); });
  window.addEventListener('beforeprint', render);
  render();

  // Tables sort by a header's column when it is clicked: numbers by value, text by text.
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length; t++) {
    (function (table) {
      var heads = table.querySelectorAll('thead th');
      for (var h = 0; h < heads.length; h++) {
        (function (th, col) {
          th.setAttribute('tabindex', '0');
          var sort = function () {
            var desc = th.getAttribute('aria-sort') !== 'descending';
            for (var k = 0; k < heads.length; k++) heads[k].removeAttribute('aria-sort');
            th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
            var num = th.getAttribute('data-type') === 'num';
            var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
            rows.sort(function (a, b) {
              var x = a.cells[col].getAttribute('data-v'), y = b.cells[col].getAttribute('data-v');
              if (num) { x = x === '' ? -Infinity : +x; y = y === '' ? -Infinity : +y; }
              var r = x < y ? -1 : x > y ? 1 : 0;
              return desc ? -r : r;
            });
            for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
          };
          th.addEventListener('click', sort);
          th.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') sort(); });
        })(heads[h], h);
      }
    })(tables[t]);
  }
}

module.exports = { s3blitzReport };
