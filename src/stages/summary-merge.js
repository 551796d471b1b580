'use strict';
// Shards' summaries combined into the summary one process would have made of the whole
// range. Exact: counts and bytes, smallest, largest and mean sizes, the size histogram and
// its quantiles (from the shards' counters), the age histogram, storage classes and their
// cost, multipart share, empty objects, the largest and oldest objects, incomplete uploads,
// key trouble counts. Group tables (extensions, folders) and the folder tree are the shards'
// reports added up: exact unless a shard folded small groups into (other), which the merged
// report then says (approximate).
const { SizeQuantiles } = require('./size-quantiles');
const { AgeHistogram } = require('./age-histogram');
const { storageCost } = require('./storage-cost');
const { compareKeys } = require('../keys/order');
const { GroupCounter } = require('./group-counter');
const { KINDS } = require('./key-trouble');

// Rows with the same value of `key` as one row, their counters added up.
const COUNTERS = ['objects', 'bytes', 'smallObjects', 'smallBytes'];
const sumBy = (rows, key) => {
  const m = new Map();
  for (const r of rows) {
    const cur = m.get(r[key]);
    if (!cur) m.set(r[key], { ...r });
    else for (const f of COUNTERS) if (typeof r[f] === 'number') cur[f] = (cur[f] || 0) + r[f];
  }
  return [...m.values()];
};

// A group table's rows added up, largest bytes first, the top `top` and one (other) row.
function mergeGroups(tables, top) {
  const rows = sumBy(tables.flat().filter(Boolean), 'name');
  const other = rows.find((r) => r.name === '(other)');
  const named = rows.filter((r) => r.name !== '(other)').sort((a, b) => b.bytes - a.bytes || compareKeys(a.name, b.name));
  const rest = named.slice(top);
  const out = named.slice(0, top);
  const folded = other ? { ...other } : rest.length ? { name: '(other)', objects: 0, bytes: 0 } : null;
  for (const r of rest) { folded.objects += r.objects; folded.bytes += r.bytes; }
  if (folded) out.push(folded);
  return out;
}

// Folder trees added up node by node (by name, under the same parent). A node folded or
// bounded in a shard (its "other" part) stays so; the merged tree says approximate then.
function mergeNode(nodes) {
  const first = nodes[0];
  const out = { name: first.name, objects: 0, bytes: 0, oldest: null, newest: null };
  for (const n of nodes) {
    out.objects += n.objects;
    out.bytes += n.bytes;
    if (n.oldest && (!out.oldest || n.oldest < out.oldest)) out.oldest = n.oldest;
    if (n.newest && (!out.newest || n.newest > out.newest)) out.newest = n.newest;
    if (n.approximate) out.approximate = true;
  }
  // A folder with no subfolders in a shard's part of it says nothing of its files: all its
  // objects are (where another shard's part of it has subfolders, the merged node has them).
  const leaf = (n) => (!n.children || !n.children.length) && !n.files && !n.other;
  const add = (field) => {
    const parts = nodes.map((n) => (field === 'files' && leaf(n) && nodes.some((m) => m.files) ? { objects: n.objects, bytes: n.bytes } : n[field])).filter(Boolean);
    if (parts.length) out[field] = { objects: parts.reduce((x, p) => x + p.objects, 0), bytes: parts.reduce((x, p) => x + p.bytes, 0) };
  };
  add('files');
  add('other');
  const kids = new Map();
  for (const n of nodes) for (const c of n.children || []) { if (!kids.has(c.name)) kids.set(c.name, []); kids.get(c.name).push(c); }
  if (kids.size) {
    out.children = [...kids.values()].map(mergeNode).sort((x, y) => y.bytes - x.bytes || y.objects - x.objects || (x.name < y.name ? -1 : 1));
  }
  return out;
}

function mergeTree(trees) {
  const present = trees.filter(Boolean);
  if (!present.length) return null;
  let nodes = 0;
  const count = (n) => { nodes++; for (const c of n.children || []) count(c); };
  const root = mergeNode(present.map((t) => t.root));
  for (const c of root.children || []) count(c); // as the tree counts them: folders, not its root
  return { depth: present[0].depth, maxNodes: present[0].maxNodes, nodes, approximate: present.some((t) => t.approximate), root };
}

// Troublesome keys: counts added up; examples, the first each shard saw, in shard order (one
// process keeps the first it sees too, in the order pages arrive).
function mergeTrouble(list) {
  const present = list.filter(Boolean);
  if (!present.length) return null;
  const kinds = new Map();
  for (const t of present) {
    for (const k of t.kinds) {
      const cur = kinds.get(k.kind);
      if (!cur) kinds.set(k.kind, { ...k, examples: [...k.examples] });
      else { cur.objects += k.objects; cur.examples = [...cur.examples, ...k.examples].slice(0, Math.max(cur.examples.length, k.examples.length)); }
    }
  }
  const order = Object.keys(KINDS);
  const out = { keys: present.reduce((n, t) => n + t.keys, 0), kinds: [...kinds.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)) };
  if (present.some((t) => t.approximate)) out.approximate = true;
  return out;
}

/** rs: summarize results of the shards, in key order (each with mergeState). */
function mergeSummaries(rs) {
  const ss = rs.map((r) => r.summary).filter(Boolean);
  const states = rs.map((r) => r.mergeState).filter(Boolean);
  const objects = ss.reduce((n, s) => n + s.objects, 0);
  const bytes = ss.reduce((n, s) => n + s.bytes, 0);
  const withObjects = ss.filter((s) => s.objects > 0);
  const q = new SizeQuantiles();
  const ages = new AgeHistogram();
  for (const st of states) { q.merge(st.quantiles); ages.merge(st.ages); }
  const classes = sumBy(states.flatMap((st) => st.classes), 'name').sort((a, b) => b.bytes - a.bytes);
  const top = states.length ? states[0].top : 20;
  const largestN = Math.max(0, ...ss.map((s) => (s.largest || []).length));
  const oldestN = Math.max(0, ...ss.map((s) => (s.oldestObjects || []).length));
  const byTime = (a, b) => (a.lastModified < b.lastModified ? -1 : a.lastModified > b.lastModified ? 1 : compareKeys(a.key, b.key));
  const pick = (field, better) => ss.map((s) => s[field]).filter(Boolean).sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : compareKeys(a.key, b.key)))[0] || null;
  // Group tables from the shards' counters where they carry them, else from their reports.
  const groups = (field) => {
    if (states.length === rs.length && states.every((st) => st[field])) {
      const g = new GroupCounter();
      for (const st of states) g.merge(st[field]);
      return { rows: g.top(top), folded: g.folded };
    }
    return { rows: mergeGroups(ss.map((s) => s[field]), top), folded: true };
  };
  const ext = groups('extensions');
  const fol = ss.some((s) => s.folders) ? groups('folders') : null;
  const extensions = ext.rows;
  const folders = fol ? fol.rows : undefined;
  const summary = {
    objects,
    bytes,
    minSize: withObjects.length ? Math.min(...withObjects.map((s) => s.minSize)) : null,
    meanSize: objects ? bytes / objects : null,
    maxSize: withObjects.length ? Math.max(...withObjects.map((s) => s.maxSize)) : null,
    histogram: sumBy(ss.flatMap((s) => s.histogram), 'min').sort((a, b) => a.min - b.min),
    storageClasses: classes.map(({ name, objects: o, bytes: b }) => ({ name, objects: o, bytes: b })),
    extensions,
    folders,
    depth: ss.find((s) => s.depth !== undefined)?.depth,
    approximate: ext.folded || Boolean(fol && fol.folded),
    oldest: pick('oldest', (a, b) => a.lastModified < b.lastModified),
    newest: pick('newest', (a, b) => a.lastModified > b.lastModified),
    sizeQuantiles: q.toJSON(),
    ageHistogram: ages.toJSON(),
    storageCost: storageCost(classes, states.length ? states[0].prices : undefined),
    multipart: { objects: ss.reduce((n, s) => n + (s.multipart ? s.multipart.objects : 0), 0), bytes: ss.reduce((n, s) => n + (s.multipart ? s.multipart.bytes : 0), 0) },
    empty: {
      objects: ss.reduce((n, s) => n + s.empty.objects, 0),
      folderMarkers: ss.reduce((n, s) => n + s.empty.folderMarkers, 0),
      examples: ss.flatMap((s) => s.empty.examples).sort(compareKeys).slice(0, Math.max(0, ...ss.map((s) => s.empty.examples.length)) || 5),
    },
    tree: mergeTree(ss.map((s) => s.tree)),
    largest: ss.flatMap((s) => s.largest || []).sort((a, b) => b.size - a.size || compareKeys(a.key, b.key)).slice(0, largestN),
    oldestObjects: ss.flatMap((s) => s.oldestObjects || []).sort(byTime).slice(0, oldestN),
    troubleKeys: mergeTrouble(ss.map((s) => s.troubleKeys)),
    incompleteUploads: mergeUploads(ss.map((s) => s.incompleteUploads)),
  };
  const startedAt = rs.map((r) => r.startedAt).filter(Boolean).sort()[0];
  return { summary, startedAt, elapsedMs: Math.max(0, ...rs.map((r) => r.elapsedMs || 0)) };
}

function mergeUploads(list) {
  const present = list.filter(Boolean);
  if (!present.length) return list.length ? null : undefined;
  const out = { ...present[0] };
  for (const u of present.slice(1)) {
    for (const [k, v] of Object.entries(u)) {
      if (typeof v === 'number') out[k] = (out[k] || 0) + v;
      else if (k === 'oldest' && v && (!out.oldest || (v.initiated || v) < (out.oldest.initiated || out.oldest))) out.oldest = v;
      else if (Array.isArray(v)) out[k] = [...(out[k] || []), ...v];
    }
  }
  return out;
}

module.exports = { mergeSummaries, mergeGroups, mergeTree };
