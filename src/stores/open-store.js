'use strict';
const { resolveLocation } = require('./location');
const { S3Store } = require('./s3-store');
const { LocalStore } = require('./local-store');
const { UsageError } = require('../errors');

// How the target is reached: the --to-* options, else the source's. A --to-profile
// brings its own credentials, so the source's are not carried over.
function targetConnection(options) {
  return {
    ...options,
    endpointUrl: options.toEndpointUrl || options.endpointUrl,
    region: options.toRegion || options.region,
    profile: options.toProfile || options.profile,
    credentials: options.toCredentials || (options.toProfile ? undefined : options.credentials),
    // Anonymous reads of a public source do not make the target's requests anonymous.
    noSignRequest: false,
  };
}

// role 'source' reads source/bucket/prefix; 'target' reads target/toBucket/toPrefix.
function openStore(options, role = 'source') {
  // A listing of a target (compare, sync) reads it like a source, but it may not exist yet.
  const given = role === 'source' ? options.sourceLocation : options.targetLocation;
  const location = given ? { ...given } : resolveLocation(role === 'source'
    ? { location: options.source, bucket: options.bucket, prefix: options.prefix }
    : { location: options.target, bucket: options.toBucket, prefix: undefined }, options.targetSide ? 'target' : role);
  const conn = role === 'source' ? options : targetConnection(options);
  const store = location.type === 's3'
    ? new S3Store({
      bucket: location.bucket,
      region: conn.region || location.region,
      endpointUrl: conn.endpointUrl,
      profile: conn.profile,
      forcePathStyle: conn.forcePathStyle,
      requestPayer: conn.requestPayer,
      credentials: conn.credentials,
      noSignRequest: conn.noSignRequest,
      fastPaths: options.fastPaths,
      requestThread: options.requestThread,
      requestThreads: options.requestThreads,
      maxSockets: options.maxSockets,
      stats: options.stats,
    })
    : new LocalStore({ root: location.path, stats: options.stats });
  if (role === 'source') refuseVersionsOfDirectoryBucket(store, options);
  return { store, location };
}

// A directory bucket keeps no versions (its only version id is "null"): a version chosen
// there is refused before any request, whatever the server would answer (a listing of
// versions there is not implemented; a GET of another version id is refused).
function refuseVersionsOfDirectoryBucket(store, options) {
  if (!store.directoryBucket) return;
  const asked = options.allVersions ? '--all-versions'
    : options.asOf !== undefined && options.asOf !== null ? '--as-of'
      : options.versionId !== undefined && options.versionId !== null && options.versionId !== 'null' ? '--version-id' : null;
  if (asked) {
    store.destroy();
    throw new UsageError(`${store.bucket} is a directory bucket, which keeps no versions: ${asked} has nothing to choose there`);
  }
}

module.exports = { openStore, targetConnection };
