'use strict';
// An object's metadata as a listing hands it out with --metadata (and --tags): the fields a
// HeadObject answer carries, named as the SDK names them, on the item itself so --filter
// functions read them as ({ContentType, Metadata, Tags}) => ...
const { CHECKSUMS } = require('./stored-checksum');

// Every metadata field, in the order --json prints them (null where the object has none).
const METADATA_FIELDS = ['ContentType', 'ContentEncoding', 'ContentDisposition', 'ContentLanguage', 'CacheControl', 'Expires',
  'Metadata', 'ServerSideEncryption', 'SSEKMSKeyId', 'BucketKeyEnabled', 'ChecksumAlgorithm', 'ChecksumType',
  'Checksum', 'ObjectLockMode', 'ObjectLockRetainUntilDate', 'ObjectLockLegalHoldStatus', 'RestoreStatus', 'ReplicationStatus',
  'ArchiveStatus', 'TagCount'];

// x-amz-restore: ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT".
function restoreStatus(text) {
  if (!text) return null;
  const ongoing = /ongoing-request="([^"]*)"/i.exec(text);
  const expiry = /expiry-date="([^"]*)"/i.exec(text);
  const t = expiry ? Date.parse(expiry[1]) : NaN;
  return { IsRestoreInProgress: ongoing ? ongoing[1] === 'true' : null, RestoreExpiryDate: Number.isNaN(t) ? null : new Date(t).toISOString() };
}

const iso = (d) => (d === undefined || d === null ? null : Number.isNaN(+new Date(d)) ? String(d) : new Date(d).toISOString());
const orNull = (v) => (v === undefined || v === '' ? null : v);

/** The metadata fields of a HeadObject answer (the SDK's output shape, or lean-objects'). */
function metadataOf(head) {
  const checksum = CHECKSUMS.find(([field]) => head[field]);
  return {
    ContentType: orNull(head.ContentType),
    ContentEncoding: orNull(head.ContentEncoding),
    ContentDisposition: orNull(head.ContentDisposition),
    ContentLanguage: orNull(head.ContentLanguage),
    CacheControl: orNull(head.CacheControl),
    Expires: head.ExpiresString ? orNull(head.ExpiresString) : iso(head.Expires),
    Metadata: { ...(head.Metadata || {}) },
    ServerSideEncryption: orNull(head.ServerSideEncryption),
    SSEKMSKeyId: orNull(head.SSEKMSKeyId),
    BucketKeyEnabled: head.BucketKeyEnabled === undefined ? null : Boolean(head.BucketKeyEnabled),
    ChecksumAlgorithm: checksum ? checksum[1] : null,
    ChecksumType: orNull(head.ChecksumType),
    Checksum: checksum ? head[checksum[0]] : null, // the value, base64 as S3 prints it
    ObjectLockMode: orNull(head.ObjectLockMode),
    ObjectLockRetainUntilDate: iso(head.ObjectLockRetainUntilDate),
    ObjectLockLegalHoldStatus: orNull(head.ObjectLockLegalHoldStatus),
    RestoreStatus: restoreStatus(head.Restore),
    ReplicationStatus: orNull(head.ReplicationStatus),
    ArchiveStatus: orNull(head.ArchiveStatus),
    TagCount: head.TagCount || 0,
  };
}

// An item with its metadata (and tags, when asked for), as one object of a fixed shape: the
// listing's fields, a version's fields, then the metadata fields.
function withMetadata(it, head, tags) {
  const m = metadataOf(head);
  if (it.VersionId === undefined) {
    return {
      Key: it.Key, Size: it.Size, LastModified: it.LastModified, ETag: it.ETag, StorageClass: it.StorageClass,
      ContentType: m.ContentType, ContentEncoding: m.ContentEncoding, ContentDisposition: m.ContentDisposition, ContentLanguage: m.ContentLanguage,
      CacheControl: m.CacheControl, Expires: m.Expires, Metadata: m.Metadata, ServerSideEncryption: m.ServerSideEncryption, SSEKMSKeyId: m.SSEKMSKeyId,
      BucketKeyEnabled: m.BucketKeyEnabled, ChecksumAlgorithm: m.ChecksumAlgorithm, ChecksumType: m.ChecksumType, Checksum: m.Checksum, ObjectLockMode: m.ObjectLockMode,
      ObjectLockRetainUntilDate: m.ObjectLockRetainUntilDate, ObjectLockLegalHoldStatus: m.ObjectLockLegalHoldStatus, RestoreStatus: m.RestoreStatus,
      ReplicationStatus: m.ReplicationStatus, ArchiveStatus: m.ArchiveStatus, TagCount: m.TagCount, Tags: tags,
    };
  }
  return { ...it, ...m, Tags: tags };
}

// A GetObjectTagging answer's TagSet as {key: value}.
function tagsOf(tagSet) {
  const out = {};
  for (const t of tagSet || []) out[t.Key] = t.Value;
  return out;
}

module.exports = { metadataOf, withMetadata, tagsOf, restoreStatus, METADATA_FIELDS };
