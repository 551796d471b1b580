'use strict';
// A run of keys with all their versions: what a version listing moves through the listers.
// A row is a key (so rows increase strictly, and the listers' cursors, checks and splits
// work on keys as they do for objects); each row holds the key's versions and delete
// markers in the server's order, newest first. Items (toItems) are the versions, flattened:
// {Key, VersionId, IsLatest, DeleteMarker, Size, LastModified, ETag, StorageClass,
// NoncurrentSince (when a newer version or delete marker replaced it; null for the latest)}.
const { ItemChunk, keysInclude, keysUtf16, keyUnits } = require('./chunks');

class VersionChunk {
  /** keys: one per row; starts: where each row's versions begin in `versions` (and one past the end). */
  constructor(keys, starts, versions, from = 0, to = keys.length) {
    this.keys = keys;
    this.starts = starts;
    this.versions = versions;
    this.from = from;
    this.length = to - from;
  }

  // Versions in the server's order (one key's run after another) as rows of keys.
  static of(versions) {
    const keys = [], starts = [];
    let prev = null;
    for (let j = 0; j < versions.length; j++) {
      const v = versions[j];
      if (v.Key !== prev) { keys.push(v.Key); starts.push(j); prev = v.Key; v.NoncurrentSince = null; } else v.NoncurrentSince = versions[j - 1].LastModified ?? null;
    }
    starts.push(versions.length);
    return new VersionChunk(keys, starts, versions);
  }

  key(i) { return this.keys[this.from + i]; }

  // The versions of row i, newest first.
  versionsOf(i) { const j = this.from + i; return this.versions.slice(this.starts[j], this.starts[j + 1]); }

  get versionCount() { return this.starts[this.from + this.length] - this.starts[this.from]; }

  size(i) { let n = 0; for (const v of this.versionsOf(i)) n += v.Size || 0; return n; }

  bytes() {
    let n = 0;
    for (let j = this.starts[this.from], end = this.starts[this.from + this.length]; j < end; j++) n += this.versions[j].Size || 0;
    return n;
  }

  text() { return null; }

  keysInclude(part) { return keysInclude(this, part); }

  keyUnits() { return keyUnits(this); }

  // Whether no key holds a code unit at or above U+D800 (chunks.js).
  utf16Ordered() { return (this.utf16 ??= keysUtf16(this)); }

  slice(from, to = this.length) {
    return new VersionChunk(this.keys, this.starts, this.versions, this.from + from, this.from + Math.min(to, this.length));
  }

  toItems() { return this.versions.slice(this.starts[this.from], this.starts[this.from + this.length]); }

  // The versions as a chunk of items (one row per version).
  flat() { return new ItemChunk(this.toItems()); }

  // The rows whose keys pass `keep`, as a chunk of the same kind.
  filterKeys(keep) {
    const out = [];
    for (let i = 0; i < this.length; i++) if (keep(this.key(i))) for (const v of this.versionsOf(i)) out.push(v);
    return VersionChunk.of(out);
  }

  // The rows as plain data, for a sort on disk; VersionChunk.fromRows turns rows back.
  rows() {
    const out = [];
    for (let i = 0; i < this.length; i++) {
      out.push([this.key(i), this.versionsOf(i).map((v) => [v.VersionId, v.IsLatest ? 1 : 0, v.DeleteMarker ? 1 : 0, v.Size, v.LastModified ? +v.LastModified : null, v.ETag ?? null, v.StorageClass ?? null])]);
    }
    return out;
  }

  static fromRows(rows) {
    const versions = [];
    for (const [Key, vs] of rows) {
      for (const [VersionId, latest, marker, Size, t, ETag, StorageClass] of vs) {
        versions.push({ Key, VersionId, IsLatest: latest === 1, DeleteMarker: marker === 1, Size, LastModified: t === null ? undefined : new Date(t), ETag: ETag ?? undefined, StorageClass: StorageClass ?? undefined });
      }
    }
    return VersionChunk.of(versions);
  }
}

module.exports = { VersionChunk };
