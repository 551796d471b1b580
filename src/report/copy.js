'use strict';
// The report of a copy result: cp's, and sync's (which adds classes and deletes); and the
// lines printed while a run goes: planned copies and deletes of a dry run, problems.
const { escapeKey, humanBytes, tallyLine } = require('./format');
const { folderText } = require('./comparison');
const { fmtInt } = require('../progress');

const PROBLEMS = ['failed', 'changed', 'skipped', 'vanished'];

// What the stored checksums proved of the objects moved (uploads, downloads, multipart copies).
function checksumLine(stats) {
  if (!stats || !(stats.checksumsConfirmed || stats.checksumsUnconfirmed)) return null;
  const none = stats.checksumsUnconfirmed ? `, ${fmtInt(stats.checksumsUnconfirmed)} with no stored checksum to check against` : '';
  return `checksums ${fmtInt(stats.checksumsConfirmed)} confirmed${none}`;
}

// How mv proved its copies before deleting their sources.
function movedHow(by) {
  const { renamed, ...proven } = by || {};
  const parts = Object.entries(proven).filter(([, n]) => n).map(([k, n]) => `${fmtInt(n)} by ${k === 'received' ? 'the server\'s check on receipt' : k === 'md5' ? 'MD5' : k === 'etag' ? 'ETag' : k === 'read' ? 'reading both' : 'checksum'}`);
  const how = [];
  if (parts.length) how.push(`copies proven: ${parts.join(', ')}`);
  if (renamed) how.push(`${fmtInt(renamed)} renamed in place (RenameObject)`);
  return how.length ? `  (${how.join('; ')})` : '';
}

function cpText(r) {
  const line = (label, t) => tallyLine(label, t, 9);
  const out = [];
  const moving = r.moved !== undefined;
  if (r.dryrun) out.push(line(moving ? 'would move' : 'would copy', r.planned));
  else if (moving) out.push(`${line('moved', r.moved)}${movedHow(r.provenBy)}`);
  else out.push(line('copied', r.copied));
  // Copies whose source is kept (not proven, changed, not deletable) are among the problems.
  for (const k of PROBLEMS) if (r[k].objects) out.push(line(k, r[k]));
  if (r.alreadyCurrent && r.alreadyCurrent.objects) out.push(line('unchanged', r.alreadyCurrent) + '  (their version then is the current one)');
  if (r.deleteMarkers && r.deleteMarkers.objects) out.push(`${r.dryrun ? 'would replay' : 'replayed'} ${fmtInt(r.deleteMarkers.objects)} delete markers`);
  if (r.collisions) out.push(`collisions ${fmtInt(r.collisions)} (two source keys mapped to one target key)`);
  const sums = checksumLine(r.stats);
  if (sums) out.push(sums);
  // Stopped early for another reason (Ctrl-C, --max-failures), the reason is said elsewhere.
  if (!r.complete && !r.interrupted && !r.stoppedByFailures) out.push('the listing is incomplete (--max-list-requests)');
  return out.join('\n') + '\n';
}

function syncText(r) {
  const line = (label, t) => `${tallyLine(label, t)}\n`;
  let s = r.dryrun ? line('would copy', r.planned) : line('copied', r.copied);
  s += r.dryrun ? line('would delete', r.deleted) : line('deleted', r.deleted);
  for (const k of PROBLEMS) if (r[k].objects) s += line(k, r[k]);
  if (r.deleteChanged && r.deleteChanged.objects) s += `${tallyLine('changed', r.deleteChanged).trimEnd()}  (target keys rewritten since they were listed: not deleted)\n`;
  if (r.deleteVanished && r.deleteVanished.objects) s += `${tallyLine('vanished', r.deleteVanished).trimEnd()}  (target keys deleted by someone else first)\n`;
  if (r.deleteRefused) s += `delete skipped: ${r.deleteRefused}\n`;
  const sums = checksumLine(r.stats);
  if (sums) s += `${sums}\n`;
  // A dry run says where the differences are.
  if (r.dryrun && r.folders) s += folderText(r.folders);
  return s;
}

// A sync result is a copy result with deletes.
function copyReport(r) {
  const isSync = r.deleted !== undefined;
  return {
    text: () => (isSync ? syncText(r) : cpText(r)),
    json: () => JSON.stringify(r, null, 2) + '\n',
  };
}

// A dry run's planned copy (cp: bare; sync: marked "copy", beside its deletes).
function plannedLine(ev, { marked = false } = {}) {
  const version = ev.versionId !== undefined ? ` (version ${ev.versionId})` : '';
  if (ev.deleteMarker) return `${marked ? 'copy    ' : ''}${'delete'.padStart(10)}  ${escapeKey(ev.key)}${version} -> ${escapeKey(ev.targetKey)}\n`;
  return `${marked ? 'copy    ' : ''}${humanBytes(ev.size).padStart(10)}  ${escapeKey(ev.key)}${version} -> ${escapeKey(ev.targetKey)}\n`;
}

// rm --dryrun's line; a version's (rm --all-versions) has its id, and "marker" for a delete marker.
function plannedDeleteLine(ev) {
  if (ev.versionId === undefined) return `delete  ${humanBytes(ev.size).padStart(10)}  ${escapeKey(ev.key)}\n`;
  return `delete  ${(ev.deleteMarker ? 'marker' : humanBytes(ev.size)).padStart(10)}  ${String(ev.versionId).padEnd(36)}  ${escapeKey(ev.key)}\n`;
}

// An object that was not copied, or a key that could not be mapped.
function problemLine(status, key, reason) {
  return `s3blitz: ${status} ${JSON.stringify(key)}: ${reason}\n`;
}

module.exports = { copyReport, plannedLine, plannedDeleteLine, problemLine };
