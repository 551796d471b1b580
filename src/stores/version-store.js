'use strict';
// A store's versions, listed as the listers list objects. A page of ListObjectVersions is
// keyed by Key like a page of objects, but a key's versions may run on over several pages,
// and a request after a key (KeyMarker alone) lists the keys after it from their newest
// version. So a page handed to the listers holds whole keys only (version-chunk.js: a row
// per key): a key cut off at the end of a truncated page is left for the next request
// (asked after the key before it, so its versions are listed again from the newest), and a
// page that holds only one key's versions is followed with KeyMarker and VersionIdMarker
// until the key is complete. Each version is then handed out exactly once, in S3's order:
// keys in UTF-8 byte order (checked by the listers like any page), each key newest first.
// A key's versions are held together: a key with a million versions holds them all.
const { VersionChunk } = require('./version-chunk');
const { compareKeys } = require('../keys/order');
const { FatalError } = require('../errors');

// Follow-up pages that answer "truncated" with nothing new, before the store is given up on.
const MAX_EMPTY_FOLLOWS = 100;

class VersionStore {
  /** base: a store with listVersionsPage({prefix, keyMarker, versionIdMarker, maxKeys, delimiter, signal}). */
  constructor(base, { stats } = {}) {
    this.base = base;
    this.type = base.type;
    this.bucket = base.bucket;
    this.endpoint = base.endpoint;
    this.delimiters = base.delimiters === true;
    this.stats = stats || base.stats;
    this.versions = true;
    this.entriesSeen = 0;
    this.keysSeen = 0;
  }

  // Entries per key so far: how much a row (a key with its versions) weighs in the listers.
  rowWeight() { return this.keysSeen ? this.entriesSeen / this.keysSeen : 1; }

  open(...a) { return this.base.open(...a); }

  onThrottle(fn) { if (this.base.onThrottle) this.base.onThrottle(fn); }

  destroy() { this.base.destroy(); }

  // The listers' page ({prefix, startAfter, continuationToken, maxKeys, delimiter, signal}):
  // {chunk, prefixes, truncated, nextToken}. With maxKeys (a probe for one key) the last
  // key's versions may be cut short.
  async listPage({ prefix, startAfter, continuationToken, maxKeys, delimiter, signal }) {
    let keyMarker = startAfter || undefined, versionIdMarker;
    if (continuationToken) ({ k: keyMarker, v: versionIdMarker } = JSON.parse(continuationToken));
    const page = await this.base.listVersionsPage({ prefix, keyMarker, versionIdMarker, maxKeys, delimiter, signal });
    let entries = page.entries;
    let prefixes = page.prefixes;
    let truncated = page.truncated;
    let empty = 0;
    // One key so far, and more may follow (no folder of the page comes after it): finish it
    // with the version markers.
    const onlyKey = () => entries.length > 0 && entries[0].Key === entries[entries.length - 1].Key &&
      !(prefixes && prefixes.some((p) => compareKeys(p, entries[0].Key) > 0));
    while (!maxKeys && truncated && onlyKey()) {
      const last = entries[entries.length - 1];
      if (this.stats) { this.stats.listRequests++; this.stats.versionFollowUps++; }
      const next = await this.base.listVersionsPage({ prefix, keyMarker: last.Key, versionIdMarker: last.VersionId, delimiter, signal });
      if (next.entries.length === 0 && next.truncated && ++empty > MAX_EMPTY_FOLLOWS) {
        throw new FatalError(`the store keeps answering ListObjectVersions after version ${JSON.stringify(last.VersionId)} of ${JSON.stringify(last.Key)} with empty pages it says are truncated`);
      }
      if (next.entries.length && next.entries[0].Key === last.Key && next.entries[0].VersionId === last.VersionId) {
        throw new FatalError(`the store answered ListObjectVersions after version ${JSON.stringify(last.VersionId)} of ${JSON.stringify(last.Key)} with that version again`);
      }
      entries = entries.concat(next.entries);
      if (next.prefixes) prefixes = (prefixes || []).concat(next.prefixes);
      truncated = next.truncated;
    }
    // The last key of a truncated page may go on in the next: leave it to the next request,
    // unless a folder of the page (with a delimiter) comes after it.
    let keep = entries.length;
    if (!maxKeys && truncated && keep) {
      const lastKey = entries[keep - 1].Key;
      if (!(prefixes && prefixes.some((p) => compareKeys(p, lastKey) > 0))) {
        while (keep > 0 && entries[keep - 1].Key === lastKey) keep--;
      }
    }
    const kept = keep === entries.length ? entries : entries.slice(0, keep);
    const chunk = VersionChunk.of(kept);
    this.entriesSeen += kept.length;
    this.keysSeen += chunk.length;
    let nextToken;
    if (truncated) {
      const lastPrefix = prefixes && prefixes.length ? prefixes[prefixes.length - 1] : null;
      const lastKept = chunk.length ? chunk.key(chunk.length - 1) : null;
      const k = lastKept === null ? lastPrefix ?? keyMarker : lastPrefix !== null && compareKeys(lastPrefix, lastKept) > 0 ? lastPrefix : lastKept;
      nextToken = JSON.stringify({ k });
    }
    return { chunk, prefixes, truncated, nextToken };
  }
}

module.exports = { VersionStore };
