'use strict';
// A comparison (compare's result, or sync's) as report sections of typed cells (see
// summary-model.js): the classes, and where the differences are, per top-level folder.

const SHOWN_EXAMPLES = 3;
const cut = (k) => (k.length > 100 ? `${k.slice(0, 99)}…` : k);

function classSection(classes) {
  return {
    id: 'classes', title: 'Classes',
    columns: [['class', 'l'], ['objects', 'r'], ['bytes', 'r']],
    rows: Object.entries(classes).map(([c, t]) => [{ v: c, t: 'text' }, { v: t.objects, t: 'int' }, { v: t.bytes, t: 'bytes' }]),
  };
}

// One row per folder and class that differs (the folders of compare's result, in order).
function folderSection(folders, { limit = Infinity } = {}) {
  if (!folders) return null;
  const rows = [];
  for (const f of folders) {
    if (!f.differ) continue;
    for (const [cls, t] of Object.entries(f.classes)) {
      if (!t.examples.length && !t.objects) continue;
      if (cls === 'same' || cls === 'unknown') continue;
      if (rows.length >= limit) break;
      rows.push([{ v: f.name, t: 'key' }, { v: cls, t: 'text' }, { v: t.objects, t: 'int' }, { v: t.bytes, t: 'bytes' },
        { v: t.examples.slice(0, SHOWN_EXAMPLES).map(cut).join(', '), t: 'key' }]);
    }
  }
  return {
    id: 'difference-folders', title: 'Differences by top-level folder',
    columns: [['folder', 'l'], ['class', 'l'], ['objects', 'r'], ['bytes', 'r'], ['examples', 'l']],
    rows,
    note: folders.some((f) => f.other) ? 'folders past the 1,000 with the most differences are counted under (other)' : undefined,
  };
}

// How the pairs found on both sides were judged, and what the HEADs that judged some cost.
const JUDGED_LABELS = { size: 'size (they differ)', 'size+time': 'size and modification time', etag: 'ETag', 'part sizes': 'ETag and first part sizes', read: 'bytes read' };
function judgedSection(r) {
  const rows = Object.entries(r.judgedBy || {}).filter(([, n]) => n > 0)
    .map(([how, n]) => [{ v: JUDGED_LABELS[how] || `stored ${how}`, t: 'text' }, { v: n, t: 'int' }]);
  if (r.classes && r.classes.unknown && r.classes.unknown.objects) rows.push([{ v: 'nothing could tell (unknown)', t: 'text' }, { v: r.classes.unknown.objects, t: 'int' }]);
  const heads = r.stats && r.stats.requests ? r.stats.requests.HEAD || 0 : 0;
  return {
    id: 'judged-by', title: 'How pairs were judged',
    columns: [['judged by', 'l'], ['pairs', 'r']],
    rows,
    note: heads ? `${heads.toLocaleString('en-US')} HEAD requests` : undefined,
  };
}

const DIFFERENT = ['only-source', 'only-target', 'size-differs', 'content-differs', 'older'];

function comparisonHeadline(r) {
  let objects = 0, differ = 0, differBytes = 0;
  for (const [c, t] of Object.entries(r.classes)) {
    objects += t.objects;
    if (DIFFERENT.includes(c)) { differ += t.objects; differBytes += t.bytes; }
  }
  const figures = [
    { id: 'verdict', label: 'verdict', v: r.identical ? 'identical' : 'different', t: 'text' },
    { id: 'objects', label: 'keys compared', v: objects, t: 'int' },
    { id: 'differ', label: 'keys that differ', v: differ, t: 'int' },
    { id: 'differ-bytes', label: 'their bytes', v: differBytes, t: 'bytes' },
  ];
  if (r.classes.unknown) figures.push({ id: 'unknown', label: 'unknown (same size, ETags not comparable)', v: r.classes.unknown.objects, t: 'int' });
  if (r.stats) figures.push({ id: 'list-requests', label: 'list requests', v: r.stats.listRequests, t: 'int' });
  return figures;
}

module.exports = { classSection, folderSection, judgedSection, comparisonHeadline, DIFFERENT };
