'use strict';
// Test-side versioned buckets on the test MinIO: versioning on, versions written and
// deleted, and the truth about them: a plain sequential ListObjectVersions walk with the
// server's own markers, its answers read in document order by a regular expression here
// (independent of src/, whose parser is under test).
const {
  PutBucketVersioningCommand, PutObjectCommand, DeleteObjectCommand, ListObjectVersionsCommand, CreateBucketCommand,
} = require('@aws-sdk/client-s3');
const { s3client, uniqueBucket, decodeS3Key } = require('./s3env');

async function enableVersioning(bucket) {
  await s3client().send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
}

async function createVersionedBucket(name = uniqueBucket('v')) {
  await s3client().send(new CreateBucketCommand({ Bucket: name }));
  await enableVersioning(name);
  return name;
}

async function putVersion(bucket, key, body, params = {}) {
  const out = await s3client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...params }));
  return out.VersionId;
}

async function deleteKey(bucket, key) {
  const out = await s3client().send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  return out.VersionId;
}

const unxml = (s) => s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e) => (e[0] === '#'
  ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
  : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e.toLowerCase()]));

function parseRaw(xml) {
  const field = (body, name) => { const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body); return m ? unxml(m[1]) : undefined; };
  const entries = [];
  for (const m of xml.matchAll(/<(Version|DeleteMarker)>([\s\S]*?)<\/\1>/g)) {
    const marker = m[1] === 'DeleteMarker';
    const b = m[2];
    entries.push({
      Key: decodeS3Key(field(b, 'Key')), VersionId: field(b, 'VersionId'), IsLatest: field(b, 'IsLatest') === 'true', DeleteMarker: marker,
      Size: marker ? 0 : Number(field(b, 'Size')), ETag: marker ? null : field(b, 'ETag'), LastModified: field(b, 'LastModified'),
    });
  }
  return {
    entries, truncated: field(xml, 'IsTruncated') === 'true', nextKeyMarker: field(xml, 'NextKeyMarker'), nextVersionIdMarker: field(xml, 'NextVersionIdMarker'),
  };
}

/** Every version and delete marker, in the server's order, by one sequential walk. */
async function walkVersions(bucket, { prefix, maxKeys = 1000 } = {}) {
  const out = [];
  let keyMarker, versionIdMarker;
  for (;;) {
    const cmd = new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: maxKeys, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker, EncodingType: 'url' });
    let raw = null;
    cmd.middlewareStack.add((next) => async (a) => {
      const r = await next(a);
      const parts = [];
      for await (const c of r.response.body) parts.push(c);
      raw = Buffer.concat(parts);
      r.response.body = raw;
      return r;
    }, { step: 'deserialize', priority: 'low', name: 'testRawVersions' });
    await s3client().send(cmd);
    const page = parseRaw(raw.toString('utf8'));
    out.push(...page.entries);
    if (!page.truncated) return out;
    // The server's own markers (MinIO adds its state to NextKeyMarker), url-encoded as the keys are.
    keyMarker = page.nextKeyMarker === undefined ? undefined : decodeS3Key(page.nextKeyMarker);
    versionIdMarker = page.nextVersionIdMarker;
  }
}

/** The newest LastModified (ms) among a walk's entries. */
const latest = (entries) => Math.max(...entries.map((e) => Date.parse(e.LastModified)));

/**
 * Waits until the server's clock has passed t (ms): writes a probe to scratch (an
 * unversioned bucket of the test's) until the server stamps it later than t. What is written
 * after this is then newer than t by the server's own clock, whatever the machine's.
 */
async function serverPast(scratch, t) {
  for (;;) {
    await s3client().send(new PutObjectCommand({ Bucket: scratch, Key: 'probe', Body: 'x' }));
    const [v] = await walkVersions(scratch, { prefix: 'probe' });
    if (Date.parse(v.LastModified) > t) return;
  }
}

/**
 * The rule, written again here (independent of src/): for each key the first entry in the
 * server's order stamped at or before t; nothing where that is a delete marker. Entries of
 * walkVersions, in its order.
 */
function versionsAt(entries, t) {
  const seen = new Set(), out = [];
  for (const e of entries) {
    if (seen.has(e.Key) || Date.parse(e.LastModified) > t) continue;
    seen.add(e.Key);
    if (!e.DeleteMarker) out.push(e);
  }
  return out;
}

module.exports = { enableVersioning, createVersionedBucket, putVersion, deleteKey, walkVersions, parseRaw, latest, serverPast, versionsAt };
