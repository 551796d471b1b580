'use strict';
// A summary (summarize's result, the object its JSON shows) as the sections a report
// shows, each a table of typed cells, so the text, Markdown and HTML reports say the same
// things in the same order. A cell is {v, t}: the raw value and its type (int, bytes,
// pct, usd, date, key, text), which each rendering formats its own way and sorts by.

const cell = (t) => (v) => ({ v, t });
const int = cell('int'), bytes = cell('bytes'), pct = cell('pct'), usd = cell('usd'), date = cell('date'), key = cell('key'), text = cell('text');

const share = (part, whole) => (whole ? part / whole : null);
const { usdText } = require('./cells');

// The folder tree's nodes, each with its path from the root and depth, depth first.
function treeNodes(root) {
  const out = [];
  const walk = (n, path, depth) => {
    out.push({ node: n, path, depth });
    for (const c of n.children || []) walk(c, path + c.name, depth + 1);
  };
  if (root) walk(root, root.name, 0);
  return out;
}

// The `limit` largest folders (by bytes), shown depth first so each sits under its parent.
function largestFolders(root, limit) {
  const all = treeNodes(root).filter((x) => x.depth > 0);
  const keep = new Set([...all].sort((a, b) => b.node.bytes - a.node.bytes).slice(0, limit).map((x) => x.node));
  return all.filter((x) => keep.has(x.node));
}

function sizeLabel(h, humanBytes) {
  if (h.max === null) return `>= ${humanBytes(h.min)}`;
  if (h.min === 0) return '0 B';
  return `${humanBytes(h.min)} .. ${humanBytes(h.max)}`;
}

// The storage cost estimate, where the price table priced at least one class.
function pricedCost(s) {
  const c = s.storageCost;
  return c && c.classes.some((r) => r.usdPerMonth !== null) ? c : null;
}

// An amount as the table's cells show one: below a cent with four decimals, so the note
// never says 0.00 under a row of 0.0005.
function amountText(v) {
  return usdText(v).replace(/^(<?)\$/, '$1');
}

function costNote(cost) {
  return `storage cost: an estimate at ${cost.region ? `${cost.region} ` : ''}list prices${cost.date ? ` of ${cost.date}` : ''}` +
    `${cost.source ? ` from ${cost.source}` : ''}: ${cost.currency} ${amountText(cost.usdPerMonth)} a month for the classes priced; requests, retrieval and transfer are not included`;
}

// Examples in a table cell: long keys cut short (the JSON has them whole).
const EXAMPLE_CHARS = 100;
const cut = (k) => (k.length > EXAMPLE_CHARS ? `${k.slice(0, EXAMPLE_CHARS - 1)}…` : k);
const examplesText = (examples) => examples.map((e) => (Array.isArray(e) ? e.map(cut).join(' | ') : cut(e)));

/**
 * res: {summary, source, complete, stats, startedAt, elapsedMs}. Options: folders (rows of
 * the folder table), humanBytes (for size labels).
 */
function summarySections(res, { folders = 50, humanBytes }) {
  const s = res.summary;
  const total = s.bytes;
  const sections = [];
  const add = (id, title, columns, rows, extra = {}) => { if (rows.length || extra.always) sections.push({ id, title, columns, rows, ...extra }); };

  const q = s.sizeQuantiles;
  if (q) {
    add('quantiles', 'Object sizes', [['', 'l'], ['min', 'r'], ['median', 'r'], ['p90', 'r'], ['p99', 'r'], ['max', 'r']],
      [[text('size'), bytes(q.min), bytes(q.median), bytes(q.p90), bytes(q.p99), bytes(q.max)]],
      { note: `median, p90 and p99 are within ${(q.relativeError * 100).toFixed(1)}% of the exact values (a log-scale histogram, 16 bins per power of two); min and max are exact` });
  }
  if (s.histogram && s.histogram.length) {
    add('size-histogram', 'Size histogram', [['size', 'r'], ['objects', 'r'], ['bytes', 'r'], ['share of bytes', 'r']],
      s.histogram.map((h) => [text(sizeLabel(h, humanBytes)), int(h.objects), bytes(h.bytes), pct(share(h.bytes, total))]));
  }
  const ages = s.ageHistogram;
  if (ages && ages.rows.length) {
    const rows = ages.rows.map((r) => [text(r.period), int(r.objects), bytes(r.bytes), pct(share(r.bytes, total))]);
    if (ages.unknown) rows.push([text('(no date)'), int(ages.unknown.objects), bytes(ages.unknown.bytes), pct(share(ages.unknown.bytes, total))]);
    add('age-histogram', `Age (last modified, by ${ages.unit})`, [[ages.unit, 'l'], ['objects', 'r'], ['bytes', 'r'], ['share of bytes', 'r']], rows);
  }
  if (s.storageClasses && s.storageClasses.length) {
    const cost = pricedCost(s);
    const costOf = (name) => { const c = cost && cost.classes.find((r) => r.name === name); return c ? c.usdPerMonth : null; };
    const rows = s.storageClasses.map((c) => {
      const row = [text(c.name), int(c.objects), bytes(c.bytes), pct(share(c.bytes, total))];
      if (cost) row.push(usd(costOf(c.name)));
      return row;
    });
    const cols = [['storage class', 'l'], ['objects', 'r'], ['bytes', 'r'], ['share', 'r']];
    if (cost) cols.push([`est. ${cost.currency}/month`, 'r']);
    // Archive metadata billed at STANDARD's price can make a STANDARD row of its own.
    if (cost) for (const c of cost.classes) if (!s.storageClasses.some((x) => x.name === c.name)) rows.push([text(`${c.name} (archive metadata)`), int(0), bytes(0), pct(0), usd(c.usdPerMonth)]);
    add('storage-classes', 'Storage classes', cols, rows, cost ? { note: costNote(cost) } : {});
  }
  if (s.by && s.by.groups.length) {
    add('by', `By ${s.by.label}`, [[s.by.label, 'l'], ['objects', 'r'], ['bytes', 'r'], ['share', 'r']],
      s.by.groups.map((g) => [key(g.name), int(g.objects), bytes(g.bytes), pct(share(g.bytes, total))]));
  }
  const v = s.versions;
  if (v) {
    add('versions', 'Versions', [['', 'l'], ['objects', 'r'], ['bytes', 'r']], [
      [text('keys'), int(v.keys), text('')],
      [text('current versions'), int(v.current.objects), bytes(v.current.bytes)],
      [text('noncurrent versions'), int(v.noncurrent.objects), bytes(v.noncurrent.bytes)],
      [text('delete markers'), int(v.deleteMarkers), text('')],
      [text('keys deleted (latest is a delete marker)'), int(v.keysDeleted), text('')],
    ], { always: true });
    const older = v.noncurrentOlderThan.filter((o) => o.objects).map((o) => `${o.days} days: ${humanBytes(o.bytes)} in ${o.objects} versions`);
    add('noncurrent-age', 'Noncurrent versions, by time noncurrent', [['noncurrent for', 'l'], ['versions', 'r'], ['bytes', 'r']],
      v.noncurrentByAge.map((b) => [text(b.maxDays === null ? `${b.minDays}+ days` : `${b.minDays}..${b.maxDays} days`), int(b.objects), bytes(b.bytes)]),
      older.length ? { note: `a lifecycle rule expiring noncurrent versions after N days would delete: ${older.join('; ')}` } : {});
  }
  if (s.multipart && s.multipart.objects) {
    add('multipart', 'Multipart objects', [['', 'l'], ['objects', 'r'], ['bytes', 'r'], ['share of objects', 'r'], ['share of bytes', 'r']],
      [[text('ETag with -N'), int(s.multipart.objects), bytes(s.multipart.bytes), pct(share(s.multipart.objects, s.objects)), pct(share(s.multipart.bytes, total))]]);
  }
  if (s.extensions && s.extensions.length) {
    add('extensions', 'Extensions', [['extension', 'l'], ['objects', 'r'], ['bytes', 'r'], ['share', 'r']],
      s.extensions.map((e) => [text(e.name), int(e.objects), bytes(e.bytes), pct(share(e.bytes, total))]));
  }
  if (s.tree) {
    const picked = largestFolders(s.tree.root, folders);
    add('folders', `Folders (to depth ${s.tree.depth}${picked.length < treeNodes(s.tree.root).length - 1 ? `, the ${picked.length} largest` : ''})`,
      [['folder', 'l'], ['objects', 'r'], ['bytes', 'r'], ['share', 'r'], ['oldest', 'l'], ['newest', 'l']],
      picked.map(({ node, path }) => [key(path), int(node.objects), bytes(node.bytes), pct(share(node.bytes, total)), date(node.oldest), date(node.newest)]),
      s.tree.approximate ? { note: `past ${s.tree.maxNodes} folders the smallest were folded into their parent's (other); folders marked ~ were seen again after that and count only what came after` } : {});
  }
  if (s.folders) {
    add('folder-groups', `Folders at depth ${s.depth}`, [['folder', 'l'], ['objects', 'r'], ['bytes', 'r'], ['share', 'r']],
      s.folders.map((f) => [key(f.name), int(f.objects), bytes(f.bytes), pct(share(f.bytes, total))]));
  }
  if (s.largest) {
    add('largest', `Largest ${s.largest.length} objects`, [['key', 'l'], ['size', 'r'], ['last modified', 'l'], ['class', 'l']],
      s.largest.map((o) => [key(o.key), bytes(o.size), date(o.lastModified), text(o.storageClass)]));
  }
  if (s.oldestObjects) {
    add('oldest', `Oldest ${s.oldestObjects.length} objects`, [['key', 'l'], ['last modified', 'l'], ['size', 'r'], ['class', 'l']],
      s.oldestObjects.map((o) => [key(o.key), date(o.lastModified), bytes(o.size), text(o.storageClass)]));
  }
  if (s.empty && s.empty.objects) {
    add('empty', 'Empty objects', [['', 'l'], ['objects', 'r'], ['examples', 'l']], [
      [text('0 bytes'), int(s.empty.objects), key(examplesText(s.empty.examples).join(', '))],
      [text('of them folder markers (key ends in /)'), int(s.empty.folderMarkers), text('')],
    ]);
  }
  if (s.troubleKeys && s.troubleKeys.kinds.length) {
    add('trouble', `Keys that look like trouble (${s.troubleKeys.keys})`, [['kind', 'l'], ['objects', 'r'], ['examples', 'l']],
      s.troubleKeys.kinds.map((k) => [text(k.label), int(k.objects), key(examplesText(k.examples).join(', '))]));
  }
  const u = s.incompleteUploads;
  if (u && !u.error) {
    add('uploads', 'Incomplete multipart uploads', [['uploads', 'r'], ['parts', 'r'], ['parts\' bytes', 'r'], ['oldest started', 'l']],
      [[int(u.uploads), int(u.parts), bytes(u.partsBytes), date(u.oldestInitiated)]],
      { always: true, note: u.uploads > u.partsKnownFor ? `parts counted for the ${u.partsKnownFor} oldest-listed of ${u.uploads} uploads (one request each)` : (u.uploads ? 'uploads never completed or aborted: their parts are stored and billed; a lifecycle rule (AbortIncompleteMultipartUpload) removes them' : undefined),
        examples: u.examples });
  } else if (u && u.error) {
    add('uploads', 'Incomplete multipart uploads', [['', 'l']], [[text(`could not be listed: ${u.error}`)]]);
  }
  const m = res.metadataScan;
  if (m) {
    const rate = m.headsPerSecond === null ? null : m.headsPerSecond;
    add('metadata-scan', 'Metadata scan', [['HeadObject', 'r'], ['GetObjectTagging', 'r'], ['time', 'r'], ['HEAD/s', 'r'], ['est. cost', 'r'], ['vanished', 'r'], ['changed', 'r'], ['failed', 'r']],
      [[int(m.headRequests), int(m.taggingRequests), cell('seconds')(m.seconds), int(rate), usd(m.estimatedCostUSD), int(m.vanished), int(m.changed), int(m.failed)]],
      m.problems && m.problems.length ? { note: `objects left out: ${m.problems.slice(0, 5).map((p) => `${p.key} (${p.status}: ${p.reason})`).join('; ')}${m.problems.length > 5 ? '; ...' : ''}` } : {});
  }
  return sections;
}

// The figures at the top of a report.
function headline(res) {
  const s = res.summary;
  const q = s.sizeQuantiles;
  // --all-versions counts every version that holds bytes: the card says so, and how many keys.
  const figures = s.versions
    ? [{ id: 'objects', label: 'versions (every version with bytes)', v: s.objects, t: 'int' }, { id: 'keys', label: 'keys', v: s.versions.keys, t: 'int' }]
    : [{ id: 'objects', label: 'objects', v: s.objects, t: 'int' }];
  figures.push({ id: 'bytes', label: s.versions ? 'total size of every version' : 'total size', v: s.bytes, t: 'bytes' });
  if (q) figures.push({ id: 'median', label: 'median size', v: q.median, t: 'bytes' });
  figures.push({ id: 'largest', label: 'largest', v: s.maxSize, t: 'bytes' });
  const cost = pricedCost(s);
  if (cost) figures.push({ id: 'cost', label: `storage a month (est., ${cost.region || 'custom prices'})`, v: cost.usdPerMonth, t: 'usd' });
  // Share of objects and share of bytes: a few multipart objects often hold most of the bytes.
  if (s.multipart && s.multipart.objects) {
    figures.push({ id: 'multipart', label: 'multipart objects', v: share(s.multipart.objects, s.objects), t: 'pct' });
    figures.push({ id: 'multipart-bytes', label: 'bytes in multipart objects', v: share(s.multipart.bytes, s.bytes), t: 'pct' });
  }
  if (s.oldest) figures.push({ id: 'oldest', label: 'oldest', v: s.oldest.lastModified, t: 'date' });
  if (s.newest) figures.push({ id: 'newest', label: 'newest', v: s.newest.lastModified, t: 'date' });
  if (s.incompleteUploads && !s.incompleteUploads.error) figures.push({ id: 'uploads', label: 'incomplete uploads', v: s.incompleteUploads.uploads, t: 'int' });
  if (res.stats) figures.push({ id: 'list-requests', label: 'list requests', v: res.stats.listRequests, t: 'int' });
  if (res.stats) figures.push({ id: 'request-cost', label: 'their cost', v: res.stats.estimatedCostUSD, t: 'usd' });
  if (res.elapsedMs !== undefined) figures.push({ id: 'elapsed', label: 'time taken', v: res.elapsedMs / 1000, t: 'seconds' });
  return figures;
}

module.exports = { summarySections, headline, treeNodes, largestFolders, sizeLabel, pricedCost, costNote };
