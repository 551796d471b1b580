'use strict';
// A bucket's object versions as pages of one walk (the way a folder is listed), so a
// listing with allVersions reads them with every range, filter and shard option: one item
// per version, {Key, Size, LastModified, ETag, StorageClass, VersionId, IsLatest}, in key
// order and each key's newest first. Delete markers are not objects and are not listed;
// they are counted (deleteMarkers). ListObjectVersions has no StartAfter or StopAt: the
// walk starts with KeyMarker (keys after it) and stops at the first key past stopAt.
const { compareKeys } = require('../keys/order');
const { UsageError } = require('../errors');

class VersionsView {
  constructor(store) {
    if (!store || store.type !== 's3' || typeof store.listVersionsPage !== 'function') {
      throw new UsageError('object versions (--all-versions) are listed from an s3:// source only');
    }
    this.s3 = store;
    this.deleteMarkers = 0;
  }

  // continuationToken: where the walk is, as this view wrote it in the page before.
  async listPage({ prefix, startAfter, stopAt, continuationToken, signal }) {
    const at = continuationToken ? JSON.parse(continuationToken) : { prefix, keyMarker: startAfter, versionIdMarker: undefined, stopAt };
    const page = await this.s3.listVersionsPage({ prefix: at.prefix, keyMarker: at.keyMarker, versionIdMarker: at.versionIdMarker, signal });
    const inRange = (key) => at.stopAt === undefined || at.stopAt === null || compareKeys(key, at.stopAt) <= 0;
    const items = page.versions.filter((v) => inRange(v.Key));
    this.deleteMarkers += page.deleteMarkers.filter((d) => inRange(d.Key)).length;
    const past = items.length < page.versions.length || (page.nextKeyMarker !== undefined && !inRange(page.nextKeyMarker));
    const truncated = page.truncated && !past;
    const nextToken = truncated
      ? JSON.stringify({ prefix: at.prefix, keyMarker: page.nextKeyMarker, versionIdMarker: page.nextVersionIdMarker, stopAt: at.stopAt })
      : undefined;
    return { items, truncated, nextToken };
  }
}

module.exports = { VersionsView };
