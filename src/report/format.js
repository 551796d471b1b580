'use strict';
// Text renderings shared by the reports: keys escaped for a terminal, sizes, dates, tables.
const chalk = require('chalk');
const { fmtInt } = require('../progress');
const { METADATA_FIELDS } = require('../stores/object-metadata');

// Control characters would corrupt a terminal or a line-based pipe: show them as \xNN.
function escapeKey(key) {
  return /[\x00-\x1f\x7f]/.test(key) ? key.replace(/[\x00-\x1f\x7f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')) : key;
}

// A page of keys, one per line, escaped like escapeKey: joined natively and checked once,
// since control characters are rare (a key with a newline shows as one line too many).
function keyLines(page) {
  if (page.length === 0) return '';
  const keys = new Array(page.length);
  for (let i = 0; i < page.length; i++) keys[i] = page[i].Key;
  const text = keys.join('\n') + '\n';
  if (!/[\x00-\x09\x0b-\x1f\x7f]/.test(text)) {
    let lines = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    if (lines === keys.length) return text;
  }
  return keys.map(escapeKey).join('\n') + '\n';
}

// A chunk of listed entries (stores/chunks.js) as keyLines prints it: straight from the
// columns when no key needs escaping.
function chunkLines(chunk) {
  const text = chunk.text();
  return text !== null ? text : keyLines(chunk.toItems());
}

function humanBytes(n) {
  if (n === null || n === undefined) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let u = 0, v = n;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? `${v} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[u]}`;
}

// Neighbouring lines often share a time: the last one is kept.
let isoLast = NaN, isoText = '';
function isoDate(d) {
  if (!d) return '-';
  const t = d instanceof Date ? +d : +new Date(d);
  if (t !== isoLast) { isoLast = t; isoText = `${new Date(t).toISOString().slice(0, 19)}Z`; }
  return isoText;
}

// An item as one JSON line: the listing's fields; a version's VersionId, IsLatest and
// DeleteMarker; an object's metadata (--metadata) and tags (--tags) where it has them.
function itemJson(it) {
  if (it.Metadata !== undefined && it.VersionId === undefined) return metadataJson(it);
  const o = {
    Key: it.Key,
    Size: it.Size,
    LastModified: it.LastModified ? new Date(it.LastModified).toISOString() : null,
    ETag: it.ETag === undefined ? null : it.ETag,
    StorageClass: it.StorageClass === undefined ? null : it.StorageClass,
  };
  if (it.VersionId !== undefined) {
    o.VersionId = it.VersionId;
    o.IsLatest = Boolean(it.IsLatest);
    o.DeleteMarker = Boolean(it.DeleteMarker);
  }
  if (it.Metadata !== undefined) for (const f of METADATA_FIELDS) o[f] = it[f] === undefined ? null : it[f];
  if (it.Tags !== undefined) o.Tags = it.Tags;
  return JSON.stringify(o);
}

// The same for an object with its metadata, in one literal (the common case of a metadata scan).
function metadataJson(it) {
  const o = {
    Key: it.Key, Size: it.Size, LastModified: it.LastModified ? new Date(it.LastModified).toISOString() : null,
    ETag: it.ETag === undefined ? null : it.ETag, StorageClass: it.StorageClass === undefined ? null : it.StorageClass,
    ContentType: it.ContentType ?? null, ContentEncoding: it.ContentEncoding ?? null, ContentDisposition: it.ContentDisposition ?? null,
    ContentLanguage: it.ContentLanguage ?? null, CacheControl: it.CacheControl ?? null, Expires: it.Expires ?? null, Metadata: it.Metadata,
    ServerSideEncryption: it.ServerSideEncryption ?? null, SSEKMSKeyId: it.SSEKMSKeyId ?? null, BucketKeyEnabled: it.BucketKeyEnabled ?? null,
    ChecksumAlgorithm: it.ChecksumAlgorithm ?? null, ChecksumType: it.ChecksumType ?? null, Checksum: it.Checksum ?? null, ObjectLockMode: it.ObjectLockMode ?? null,
    ObjectLockRetainUntilDate: it.ObjectLockRetainUntilDate ?? null, ObjectLockLegalHoldStatus: it.ObjectLockLegalHoldStatus ?? null,
    RestoreStatus: it.RestoreStatus ?? null, ReplicationStatus: it.ReplicationStatus ?? null, ArchiveStatus: it.ArchiveStatus ?? null,
    TagCount: it.TagCount ?? null, Tags: it.Tags,
  };
  return JSON.stringify(o);
}

// Date, size and key; for a version also its id and a mark: * the latest, D a delete marker.
function itemLong(it) {
  if (it.VersionId === undefined) return `${isoDate(it.LastModified)}  ${String(it.Size).padStart(14)}  ${escapeKey(it.Key)}`;
  const mark = `${it.IsLatest ? '*' : ' '}${it.DeleteMarker ? 'D' : ' '}`;
  return `${isoDate(it.LastModified)}  ${String(it.DeleteMarker ? '-' : it.Size).padStart(14)}  ${mark}  ${String(it.VersionId).padEnd(36)}  ${escapeKey(it.Key)}`;
}

// ls --long --human-readable: the size in units.
function itemLongHuman(it) {
  return `${isoDate(it.LastModified)}  ${humanBytes(it.Size).padStart(10)}  ${escapeKey(it.Key)}`;
}

// Terminal columns a character takes: two for East Asian wide and fullwidth characters
// (CJK, Hangul, fullwidth forms, most emoji), none for combining marks, else one.
function charWidth(cp) {
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfe0f) return 0;
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6)
    || (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) return 2;
  return 1;
}

function displayWidth(s) {
  let w = 0;
  for (const ch of stripAnsi(s)) w += charWidth(ch.codePointAt(0));
  return w;
}

// A name cell wider than this is cut in the middle (…), so one long folder name does not
// push every row of a table off the screen; --json and the HTML report keep names whole.
const MAX_CELL = 60;

function fitCell(s) {
  if (s.includes('\x1b') || displayWidth(s) <= MAX_CELL) return s;
  const chars = [...s];
  const half = (MAX_CELL - 1) / 2;
  let head = '', tail = '', w = 0;
  for (const ch of chars) { const cw = charWidth(ch.codePointAt(0)); if (w + cw > Math.floor(half)) break; head += ch; w += cw; }
  w = 0;
  for (let i = chars.length - 1; i >= 0; i--) { const cw = charWidth(chars[i].codePointAt(0)); if (w + cw > Math.ceil(half)) break; tail = chars[i] + tail; w += cw; }
  return `${head}…${tail}`;
}

function table(rows, aligns) {
  const cells = rows.map((r) => r.map((cell, c) => (aligns[c] === 'r' ? String(cell) : fitCell(String(cell)))));
  const widths = cells[0].map((_, c) => Math.max(...cells.map((r) => displayWidth(r[c]))));
  return cells.map((r) => r.map((s, c) => {
    const pad = widths[c] - displayWidth(s);
    return aligns[c] === 'r' ? ' '.repeat(pad) + s : s + ' '.repeat(pad);
  }).join('  ').trimEnd()).join('\n');
}

function stripAnsi(s) { return s.replace(/\x1b\[[0-9;]*m/g, ''); }

function pct(part, whole) { return whole ? `${((100 * part) / whole).toFixed(1)}%` : '-'; }

// The requests of a metadata scan (--metadata, --tags, --by), their rate and cost.
function scanText(m) {
  const rate = m.headsPerSecond === null ? '' : ` (${fmtInt(m.headsPerSecond)} HEAD/s)`;
  const problems = [['vanished', m.vanished], ['changed', m.changed], ['failed', m.failed]].filter(([, n]) => n).map(([k, n]) => `${fmtInt(n)} ${k}`);
  return `metadata: ${fmtInt(m.headRequests)} HeadObject and ${fmtInt(m.taggingRequests)} GetObjectTagging requests in ${m.seconds.toFixed(1)} s${rate}, estimated cost $${m.estimatedCostUSD.toFixed(4)}` +
    (problems.length ? `; ${problems.join(', ')}` : '');
}

// A dry run's estimate of a metadata scan.
function estimateText(e) {
  return `a metadata scan would send ${fmtInt(e.headRequests)} HeadObject requests` +
    (e.taggingRequestsAtMost ? ` and up to ${fmtInt(e.taggingRequestsAtMost)} GetObjectTagging requests (one per object with tags)` : '') +
    `, estimated cost $${e.estimatedCostUSD.toFixed(4)} (listing ${fmtInt(e.objects)} objects took ${fmtInt(e.listRequests)} list requests, $${e.listCostUSD.toFixed(4)})` +
    `${e.complete ? '' : '; the listing was incomplete'}\n`;
}

// "copied      12,345 objects   1.50 GiB": a line of the cp and sync reports.
function tallyLine(label, t, width = 11) {
  return `${label.padEnd(width)}${fmtInt(t.objects).padStart(12)} ${t.objects === 1 ? 'object ' : 'objects'} ${humanBytes(t.bytes).padStart(11)}`;
}

function statsText(stats) {
  const eff = stats.efficiency === null ? '-' : stats.efficiency.toFixed(3);
  const parsed = stats.parsedPerUnique == null ? '' : `, keys parsed per unique key ${stats.parsedPerUnique.toFixed(2)}`;
  const kinds = stats.listKinds ? Object.entries(stats.listKinds).map(([k, v]) => `${k} ${fmtInt(v.requests)}`).join(', ') : '';
  return `list requests ${fmtInt(stats.listRequests)} (${fmtInt(stats.folderListings)} folder listings), pages ${fmtInt(stats.pages)}, ` +
    `keys returned ${fmtInt(stats.keysReturned)}, unique ${fmtInt(stats.keysUnique)}, overlap ${fmtInt(stats.overlap)}, efficiency ${eff}${parsed}, ` +
    `${kinds ? `requests by kind (${kinds}), ` : ''}` +
    `in flight mean ${stats.meanInflight.toFixed(1)} max ${stats.maxInflight}, splits ${stats.splits}, hedges ${stats.hedges}` +
    `${stats.hints ? `, hints ${stats.hints}` : ''}${stats.budgetHeld ? `, held by the request budget ${fmtInt(stats.budgetHeld)} times` : ''}${stats.retries ? `, retries ${stats.retries}` : ''}` +
    `${stats.expiredSessions ? `, requests sent again after their session expired ${fmtInt(stats.expiredSessions)}` : ''}` +
    `${stats.versions ? `, versions ${fmtInt(stats.versions)} (${fmtInt(stats.versionFollowUps)} requests finishing a key)` : ''}` +
    `${stats.fallback ? `, fallback ${stats.fallback}` : ''}, est. cost $${stats.estimatedCostUSD.toFixed(4)}`;
}

module.exports = {
  keyLines, chunkLines, escapeKey, humanBytes, isoDate, itemJson, itemLong, itemLongHuman, statsText, table, tallyLine, pct, displayWidth, fitCell,
  scanText, estimateText,
};
