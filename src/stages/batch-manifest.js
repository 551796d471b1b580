'use strict';
// S3 Batch Operations manifests (format S3BatchOperations_CSV_20180820): one object per
// line, "bucket,key" or "bucket,key,versionId", no header, every field URL-encoded. Fields
// are percent-encoded as UTF-8 with only A-Z a-z 0-9 - _ . ~ and "/" left as they are: a
// field then holds no comma, quote, space, line break or "+", so it needs no CSV quoting,
// and it decodes to the same key whether the reader treats "+" as a space (form decoding)
// or not (plain percent decoding).
const { FatalError } = require('../errors');

const FORMAT = 'S3BatchOperations_CSV_20180820';

// encodeURIComponent leaves ! ' ( ) * alone; they are escaped too, and "/" is kept.
function encodeField(text) {
  let out;
  try {
    out = encodeURIComponent(text);
  } catch {
    throw new FatalError(`cannot write ${JSON.stringify(text)} to a manifest: it is not valid Unicode`);
  }
  return out.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%2F/g, '/');
}

/** One manifest line (with its "\n") for an object of bucket; versionId: a third column. */
function manifestRow(bucket, key, versionId) {
  const row = `${encodeField(bucket)},${encodeField(key)}`;
  return versionId === undefined ? `${row}\n` : `${row},${encodeField(versionId)}\n`;
}

/**
 * The rows of a chunk of a listing of bucket (anything with length and key(i); with
 * versions, toItems() too, whose items carry VersionId). Delete markers are not objects a
 * job can act on: they get no row. counts, when given, adds up {rows, deleteMarkers}.
 */
function manifestRows(bucket, chunk, { versions = false, counts = null } = {}) {
  let text = '';
  if (versions) {
    for (const it of chunk.toItems()) {
      if (it.DeleteMarker) { if (counts) counts.deleteMarkers++; continue; }
      text += manifestRow(bucket, it.Key, it.VersionId);
      if (counts) counts.rows++;
    }
    return text;
  }
  if (counts) counts.rows += chunk.length;
  for (let i = 0; i < chunk.length; i++) text += manifestRow(bucket, chunk.key(i));
  return text;
}

/** The fields a CreateJob request names for a manifest with or without version ids. */
function manifestSpec({ versions = false } = {}) {
  return { Format: FORMAT, Fields: versions ? ['Bucket', 'Key', 'VersionId'] : ['Bucket', 'Key'] };
}

/** One line read back: {bucket, key, versionId?}, decoded as Batch Operations does. */
function parseManifestRow(line) {
  const fields = line.replace(/\r?\n$/, '').split(',');
  if (fields.length < 2 || fields.length > 3) throw new Error(`not a manifest line: ${JSON.stringify(line)}`);
  const decode = (f) => decodeURIComponent(f.replace(/\+/g, ' '));
  const out = { bucket: decode(fields[0]), key: decode(fields[1]) };
  if (fields.length === 3) out.versionId = decode(fields[2]);
  return out;
}

module.exports = { FORMAT, encodeField, manifestRow, manifestRows, manifestSpec, parseManifestRow };
