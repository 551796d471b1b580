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

// Where a field of the entry x[s, e) opens: looked for from c first (servers send an entry's
// fields in one order, each after the one before), then from the entry's start.
function fieldAt(x, open, s, e, c) {
  let i = x.indexOf(open, c);
  if (i >= 0 && i < e) return i;
  i = x.indexOf(open, s);
  return i >= 0 && i < c ? i : -1;
}

// A field's text, or null.
function field(x, open, close, s, e, c) {
  const i = fieldAt(x, open, s, e, c);
  if (i < 0) return null;
  const j = x.indexOf(close, i + open.length);
  return j < 0 || j > e ? null : x.slice(i + open.length, j);
}

// &quot;hex&quot; (or &#34;hex&#34;) as "hex" without a pass for entities.
function etagOf(t) {
  if (t === null || t === '') return undefined;
  const q = t.startsWith('&quot;') && t.endsWith('&quot;') ? 6 : t.startsWith('&#34;') && t.endsWith('&#34;') ? 5 : 0;
  if (q && t.length >= 2 * q && t.indexOf('&', q) === t.length - q) return `"${t.slice(q, t.length - q)}"`;
  return decodeEntities(t);
}

// A top-level element of the answer within buf[from, to) (searched there only: the entries
// between are most of the answer).
function topField(buf, name, from, to) {
  const part = buf.subarray(from, to);
  const open = B(`<${name}>`), close = B(`</${name}>`);
  const i = part.indexOf(open);
  if (i < 0) return null;
  const j = part.indexOf(close, i);
  return j < 0 ? null : part.toString('utf8', i + open.length, j);
}

const STANDARD = 'STANDARD';

// The entries of one piece (whole entries only), in order, as version items. Versions of a
// key share its decoded key, and neighbours their parsed time.
function parseEntries(x, out, decode) {
  let pos = 0, keyText = null, key = null, lmText = null, lm;
  for (;;) {
    let marker;
    if (x.startsWith('<Version>', pos)) marker = false;
    else if (x.startsWith('<DeleteMarker>', pos)) marker = true;
    else {
      const v = x.indexOf('<Version>', pos), d = x.indexOf('<DeleteMarker>', pos);
      if (v < 0 && d < 0) return;
      marker = d >= 0 && (v < 0 || d < v);
      pos = marker ? d : v;
    }
    const s = pos + (marker ? 14 : 9);
    const e = x.indexOf(marker ? '</DeleteMarker>' : '</Version>', s);
    if (e < 0) throw new PageError('truncated ListObjectVersions response');
    const k = fieldAt(x, '<Key>', s, e, s);
    const ke = k < 0 ? -1 : x.indexOf('</Key>', k);
    if (ke < 0 || ke > e) throw new PageError('a ListObjectVersions entry has no Key');
    if (keyText === null || ke - k - 5 !== keyText.length || !x.startsWith(keyText, k + 5)) {
      keyText = x.slice(k + 5, ke);
      key = decode(keyText);
    }
    let c = ke + 6;
    const vid = field(x, '<VersionId>', '</VersionId>', s, e, c);
    const latest = field(x, '<IsLatest>', '</IsLatest>', s, e, c);
    const t = fieldAt(x, '<LastModified>', s, e, c);
    if (t >= 0) {
      const te = x.indexOf('</LastModified>', t);
      if (lmText === null || te - t - 14 !== lmText.length || !x.startsWith(lmText, t + 14)) {
        lmText = x.slice(t + 14, te);
        const ms = Date.parse(lmText);
        lm = Number.isNaN(ms) ? undefined : ms;
      }
      if (t >= c) c = te + 15;
    }
    const item = {
      Key: key,
      VersionId: vid === null || vid === '' ? 'null' : decodeEntities(vid),
      IsLatest: latest === 'true',
      DeleteMarker: marker,
      Size: 0,
      LastModified: t >= 0 && lm !== undefined ? new Date(lm) : undefined,
      ETag: undefined,
      StorageClass: undefined,
    };
    if (!marker) {
      item.ETag = etagOf(field(x, '<ETag>', '</ETag>', s, e, c));
      const size = field(x, '<Size>', '</Size>', s, e, c);
      item.Size = size === null ? 0 : Number(size);
      const sc = field(x, '<StorageClass>', '</StorageClass>', s, e, c);
      item.StorageClass = sc === null || sc === STANDARD ? STANDARD : sc;
    }
    out.push(item);
    pos = e + (marker ? 15 : 10);
  }
}

/**
 * {entries: [{Key, VersionId, IsLatest, DeleteMarker, Size, LastModified, ETag, StorageClass}]
 * in the answer's order, prefixes (looked for only with folders: a listing with a delimiter),
 * truncated, nextKeyMarker, nextVersionIdMarker}.
 */
function parseListObjectVersions(input, { folders = true } = {}) {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  // Where the next entry of each kind opens and closes, searched again only once passed:
  // a page without delete markers must not be scanned to its end for one at every piece.
  const at = { v: buf.indexOf(T_VERSION), d: buf.indexOf(T_MARKER), cv: -2, cd: -2 };
  const next = (k, tag, from) => { if (at[k] !== -1 && at[k] < from) at[k] = buf.indexOf(tag, from); return at[k]; };
  const earliest = (a, b) => (a < 0 ? b : b < 0 ? a : Math.min(a, b));
  const first = earliest(at.v, at.d);
  const head = first < 0 ? buf.length : first;
  const enc = isAscii(buf) ? 'latin1' : 'utf8';
  const entries = [];
  let lastEnd = -1;
  let decode = null;
  for (let pos = first; pos >= 0;) {
    const from = Math.min(pos + PIECE, buf.length);
    const cv = next('cv', T_CVERSION, from), cd = next('cd', T_CMARKER, from);
    let end = earliest(cv < 0 ? -1 : cv + T_CVERSION.length, cd < 0 ? -1 : cd + T_CMARKER.length);
    if (end < 0) end = Math.max(buf.lastIndexOf(T_CVERSION) + T_CVERSION.length, buf.lastIndexOf(T_CMARKER) + T_CMARKER.length);
    if (end <= pos) throw new PageError('truncated ListObjectVersions response');
    if (decode === null) {
      // <EncodingType> is the listing's own: before the entries or after them.
      // The last entry's end, found from the back (both kinds: a page may lack either).
      const lv = buf.lastIndexOf(T_CVERSION), base = lv < 0 ? 0 : lv;
      const lm = buf.subarray(base).lastIndexOf(T_CMARKER);
      const t = topField(buf, 'EncodingType', 0, head) ?? topField(buf, 'EncodingType', lm < 0 ? base : base + lm, buf.length);
      decode = t !== null && t.trim().toLowerCase() === 'url' ? decodeUrlXml : decodeEntities;
    }
    parseEntries(buf.toString(enc, pos, end), entries, decode);
    lastEnd = end;
    pos = earliest(next('v', T_VERSION, end), next('d', T_MARKER, end));
  }
  if (decode === null) {
    const t = topField(buf, 'EncodingType', 0, buf.length);
    decode = t !== null && t.trim().toLowerCase() === 'url' ? decodeUrlXml : decodeEntities;
  }
  // The listing's own fields come before the entries or after them.
  const tail = lastEnd < 0 ? buf.length : lastEnd;
  const outer = (name) => topField(buf, name, 0, head) ?? topField(buf, name, tail, buf.length);
  const flag = outer('IsTruncated');
  const truncated = flag !== null && flag.trim() === 'true';
  const nextKey = outer('NextKeyMarker');
  const nextVid = outer('NextVersionIdMarker');
  let prefixes;
  if (folders) {
    const T_CP = B('<CommonPrefixes>'), T_CCP = B('</CommonPrefixes>');
    for (let a = buf.indexOf(T_CP); a >= 0; a = buf.indexOf(T_CP, a + T_CP.length)) {
      const e = buf.indexOf(T_CCP, a);
      const p = e < 0 ? null : topField(buf, 'Prefix', a, e);
      if (p === null) throw new PageError('a ListObjectVersions folder entry has no Prefix');
      (prefixes ||= []).push(decode(p));
    }
  }
  return {
    entries, prefixes, truncated,
    // Informative only (MinIO adds its own state to it): continuations use the last entry.
    nextKeyMarker: nextKey === null ? undefined : nextKey,
    nextVersionIdMarker: nextVid === null || nextVid === '' ? undefined : decodeEntities(nextVid),
  };
}

module.exports = { parseListObjectVersions };
