'use strict';
// manifest: the objects a listing selects, written as an S3 Batch Operations manifest (see
// batch-manifest.js) to a local file or an S3 object, with the ETag a CreateJob
// request must name. The CSV goes out as the listing comes in: to S3 as a stream upload
// (multipart past its first part), to a file through a temp file renamed at the end, so
// no one ever reads half a manifest.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Listing } = require('../list/listing');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { describeS3Error } = require('../stores/s3-errors');
const { uploadStream } = require('../transfer/stream-upload');
const { manifestRows, manifestSpec } = require('./batch-manifest');
const { resolveShard, shardOptions, shardInfo, shardText, writeResult } = require('./shards');
const { UsageError, FatalError } = require('../errors');
const { option } = require('../options');
const { openListing } = require('./source-listing');

// The S3 partition of a region, for the manifest's ARN.
function partitionOf(region = '') {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

function outputLocation(output) {
  if (typeof output !== 'string' || output === '' || output === '-') throw new UsageError('manifest needs --output FILE or --output s3://bucket/key');
  const loc = resolveLocation({ location: output }, 'target');
  if (loc.type === 's3' && (loc.glob || !loc.prefix || loc.prefix.endsWith('/'))) {
    throw new UsageError(`--output ${output}: name the manifest object's key, e.g. s3://${loc.bucket}/manifests/objects.csv`);
  }
  return loc;
}

/**
 * manifest: options of a listing (source, range, filters, connection), output (a file,
 * or s3://bucket/key), partSize (the parts of an upload longer than one; default 8MiB) and
 * allVersions (a row per version, with its id: delete markers are left out and counted).
 * With a shard (shard, shards, plan, as every command that reads a source takes them) it
 * writes its shard's objects, to an output whose "%i" is the shard's index, and its result
 * where result says. Resolves to {output, source, bucket, objects, bytes, etag, etagSource,
 * spec, location, complete, stats, deleteMarkers?, shard?}; etagSource 's3' is the ETag S3 answered the
 * upload with, 'md5' the MD5 of the local file (its ETag once uploaded in one PutObject).
 */
async function manifest(options = {}) {
  outputLocation(String(options.output ?? '').replace(/%i/g, '0')); // checked before any listing
  const partSize = option(options, 'partSize'); // default: uploadStream's
  const shard = await resolveShard(options);
  if (shard && !String(options.output).includes('%i')) throw new UsageError(`--output ${options.output}: a shard's manifest needs "%i" (the shard's index) in its name, or the shards overwrite each other's`);
  if (shard && options.log) options.log(`shard ${shard.index} of ${shard.of} (from ${shard.via}): ${shardText(shard)}`);
  const out = outputLocation(String(options.output).replace(/%i/g, shard ? String(shard.index) : '0'));
  const res = await write(shard ? shardOptions(options, shard) : { ...options, result: undefined }, out, partSize);
  if (shard) res.shard = shardInfo(shard);
  if (options.result !== undefined) await writeResult(options.result, 'manifest', res, options, shard);
  return res;
}

async function write(options, out, partSize) {
  const { listing, store: source, close } = openListing(Listing, options);
  try {
    if (source.type !== 's3') throw new UsageError(`manifest needs an s3:// source: a Batch Operations manifest names objects in a bucket, not ${JSON.stringify(listing.location.text)}`);
    const bucket = source.bucket;
    const versions = Boolean(options.allVersions);
    let listingError = null;
    const counts = { rows: 0, deleteMarkers: 0 };
    async function* csv() {
      try {
        for await (const chunk of listing.chunks()) {
          const rows = chunk.length ? manifestRows(bucket, chunk, { versions, counts }) : '';
          if (rows) yield Buffer.from(rows);
        }
      } catch (err) {
        listingError = err;
        throw err;
      }
    }
    const written = out.type === 's3'
      ? await toS3(out, csv(), { ...options, partSize }, listing, () => listingError)
      : await toFile(out.path, csv(), listing.signal);
    return {
      output: out.type === 's3' ? `s3://${out.bucket}/${out.prefix}` : out.path,
      source: listing.location.text, bucket, objects: counts.rows, ...written,
      spec: manifestSpec({ versions }),
      ...(versions ? { deleteMarkers: counts.deleteMarkers } : {}),
      complete: listing.complete,
      stats: listing.stats.toJSON(),
      ...(listing.noMatch ? { noMatch: listing.noMatchText } : {}),
    };
  } finally {
    close();
  }
}

async function toS3(out, stream, options, listing, listingError) {
  const { partSize } = options;
  const { store } = openStore({ ...options, targetLocation: out, stats: listing.stats, maxSockets: 8 }, 'target');
  try {
    await store.open();
    const key = out.prefix;
    const r = await uploadStream({ store, key, stream, w: { ContentType: 'text/csv' }, ...(partSize ? { partSize } : {}), signal: listing.signal, stats: listing.stats });
    let etag = r.etag;
    if (!etag) { // a store that leaves it out of the answer: ask
      const head = await store.stat(key, listing.signal);
      etag = head && head.ETag;
    }
    if (!etag) throw new FatalError(`s3://${out.bucket}/${key}: the store gave the manifest no ETag`);
    etag = String(etag).replace(/^"|"$/g, '');
    let region = '';
    try { region = await store.client.config.region(); } catch { region = options.region || ''; }
    return {
      bytes: r.bytes, etag, etagSource: 's3',
      location: { ObjectArn: `arn:${partitionOf(region)}:s3:::${out.bucket}/${key}`, ETag: etag },
    };
  } catch (err) {
    if (listingError()) throw listingError();
    throw describeS3Error(err, { bucket: out.bucket, key: out.prefix, op: 'upload' });
  } finally {
    store.destroy();
  }
}

async function toFile(file, stream, signal) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const md5 = crypto.createHash('md5');
  const ws = fs.createWriteStream(tmp);
  // The file's errors (its open, a full disk) are kept for the loop below, never unhandled.
  let writeError = null;
  ws.on('error', (err) => { writeError = writeError || err; });
  let bytes = 0;
  try {
    for await (const buf of stream) {
      if (writeError) throw writeError;
      md5.update(buf);
      bytes += buf.length;
      if (!ws.write(buf)) await waitDrain(ws, signal);
    }
    await new Promise((resolve, reject) => {
      if (writeError) { reject(writeError); return; }
      ws.once('error', reject);
      ws.end(resolve);
    });
    fs.renameSync(tmp, file);
  } catch (err) {
    // Closed first, so that an open still under way does not bring the file back.
    await new Promise((resolve) => { if (ws.closed) resolve(); else { ws.once('close', resolve); ws.destroy(); } });
    fs.rmSync(tmp, { force: true });
    throw err.code && /^E[A-Z]+$/.test(err.code) ? new FatalError(`--output ${file}: ${err.message}`, { cause: err }) : err;
  }
  return { bytes, etag: md5.digest('hex'), etagSource: 'md5', location: null };
}

function waitDrain(ws, signal) {
  return new Promise((resolve, reject) => {
    const done = () => { ws.off('drain', done); ws.off('error', fail); if (signal) signal.removeEventListener('abort', done); resolve(); };
    const fail = (err) => { ws.off('drain', done); reject(err); };
    ws.once('drain', done);
    ws.once('error', fail);
    if (signal) signal.addEventListener('abort', done, { once: true });
  });
}

module.exports = { manifest };
