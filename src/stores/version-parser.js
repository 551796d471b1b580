'use strict';
// A ListObjectVersions answer, read in document order. S3 sends versions and delete markers
// of a key as <Version> and <DeleteMarker> elements interleaved in its own order (newest
// first); the SDK splits them into two arrays and loses that order, which LastModified (one
// second of resolution) cannot restore. So the answer is read here, element by element, as
// list-parser reads ListObjectsV2: by indexOf, from pieces of the response Buffer cut at
// entry ends, keys url-decoded only when the answer says <EncodingType>url</EncodingType>.
const { isAscii } = require('buffer');
const { decodeUrlXml, decodeEntities, PageError } = require('./list-parser');

const B = (s) => Buffer.from(s);
const T_VERSION = B('<Version>');
const T_MARKER = B('<DeleteMarker>');
const T_CVERSION = B('</Version>');
const T_CMARKER = B('</DeleteMarker>');
const PIECE = 48 * 1024;

// A field's text inside one entry (x from s to e), or null.
function field(x, open, close, s, e) {
  const i = x.indexOf(open, s);
  if (i < 0 || i >= e) return null;
  const j = x.indexOf(close, i + open.length);
  return j < 0 || j > e ? null : x.slice(i + open.length, j);
}

// A top-level element of the answer, outside the entries.
function topField(buf, name, from, to) {
  const open = B(`<${name}>`), close = B(`</${name}>`);
  const i = buf.indexOf(open, from);
  if (i < 0 || i >= to) return null;
  const j = buf.indexOf(close, i);
  return j < 0 || j > to ? null : buf.toString('utf8', i + open.length, j);
}

let lmText = null, lmTime = NaN;
function timeOf(text) {
  if (text === null) return undefined;
  // Neighbours often share a timestamp: parse each distinct one once.
  if (text !== lmText) { lmText = text; lmTime = Date.parse(text); }
  return Number.isNaN(lmTime) ? undefined : new Date(lmTime);
}

// The entries of one piece (whole entries only), in order, as version items.
function parseEntries(x, out, decode) {
  let pos = 0;
  for (;;) {
    const v = x.indexOf('<Version>', pos), d = x.indexOf('<DeleteMarker>', pos);
    if (v < 0 && d < 0) return;
    const marker = d >= 0 && (v < 0 || d < v);
    const s = marker ? d + 14 : v + 9;
    const e = x.indexOf(marker ? '</DeleteMarker>' : '</Version>', s);
    if (e < 0) throw new PageError('truncated ListObjectVersions response');
    const key = field(x, '<Key>', '</Key>', s, e);
    if (key === null) throw new PageError('a ListObjectVersions entry has no Key');
    const versionId = field(x, '<VersionId>', '</VersionId>', s, e);
    const etag = field(x, '<ETag>', '</ETag>', s, e);
    const size = field(x, '<Size>', '</Size>', s, e);
    const sc = field(x, '<StorageClass>', '</StorageClass>', s, e);
    out.push({
      Key: decode(key),
      VersionId: versionId === null || versionId === '' ? 'null' : decodeEntities(versionId),
      IsLatest: field(x, '<IsLatest>', '</IsLatest>', s, e) === 'true',
      DeleteMarker: marker,
      Size: marker ? 0 : size === null ? 0 : Number(size),
      LastModified: timeOf(field(x, '<LastModified>', '</LastModified>', s, e)),
      ETag: marker || etag === null || etag === '' ? undefined : decodeEntities(etag),
      StorageClass: marker ? undefined : sc || 'STANDARD',
    });
    pos = e;
  }
}

// Where the next entry (of either kind) ends at or after `from`, or -1.
function nextEntryEnd(buf, from) {
  const v = buf.indexOf(T_CVERSION, from), d = buf.indexOf(T_CMARKER, from);
  if (v < 0) return d < 0 ? -1 : d + T_CMARKER.length;
  if (d < 0 || v < d) return v + T_CVERSION.length;
  return d + T_CMARKER.length;
}

/**
 * {entries: [{Key, VersionId, IsLatest, DeleteMarker, Size, LastModified, ETag, StorageClass}]
 * in the answer's order, prefixes, truncated, nextKeyMarker, nextVersionIdMarker}.
 */
function parseListObjectVersions(input) {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const v0 = buf.indexOf(T_VERSION), d0 = buf.indexOf(T_MARKER);
  const first = v0 < 0 ? d0 : d0 < 0 ? v0 : Math.min(v0, d0);
  const enc = isAscii(buf) ? 'latin1' : 'utf8';
  const urlText = topField(buf, 'EncodingType', 0, buf.length);
  const decode = urlText !== null && urlText.trim().toLowerCase() === 'url' ? decodeUrlXml : decodeEntities;
  const entries = [];
  let lastEnd = -1;
  for (let pos = first; pos >= 0;) {
    let end = nextEntryEnd(buf, Math.min(pos + PIECE, buf.length));
    if (end < 0) end = Math.max(buf.lastIndexOf(T_CVERSION) + T_CVERSION.length, buf.lastIndexOf(T_CMARKER) + T_CMARKER.length);
    if (end <= pos) throw new PageError('truncated ListObjectVersions response');
    parseEntries(buf.toString(enc, pos, end), entries, decode);
    lastEnd = end;
    const nv = buf.indexOf(T_VERSION, end), nd = buf.indexOf(T_MARKER, end);
    pos = nv < 0 ? nd : nd < 0 ? nv : Math.min(nv, nd);
  }
  // The listing's own fields come before the entries or after them.
  const head = first < 0 ? buf.length : first;
  const tail = lastEnd < 0 ? buf.length : lastEnd;
  const outer = (name) => topField(buf, name, 0, head) ?? topField(buf, name, tail, buf.length);
  const flag = outer('IsTruncated');
  const truncated = flag !== null && flag.trim() === 'true';
  const nextKey = outer('NextKeyMarker');
  const nextVid = outer('NextVersionIdMarker');
  let prefixes;
  const T_CP = B('<CommonPrefixes>'), T_CCP = B('</CommonPrefixes>');
  for (let at = buf.indexOf(T_CP); at >= 0; at = buf.indexOf(T_CP, at + T_CP.length)) {
    const end = buf.indexOf(T_CCP, at);
    const p = end < 0 ? null : topField(buf, 'Prefix', at, end);
    if (p === null) throw new PageError('a ListObjectVersions folder entry has no Prefix');
    (prefixes ||= []).push(decode(p));
  }
  return {
    entries, prefixes, truncated,
    // Informative only (MinIO adds its own state to it): continuations use the last entry.
    nextKeyMarker: nextKey === null ? undefined : nextKey,
    nextVersionIdMarker: nextVid === null || nextVid === '' ? undefined : decodeEntities(nextVid),
  };
}

module.exports = { parseListObjectVersions };
