'use strict';
const { resolveLocation } = require('./location');
const { S3Store } = require('./s3-store');
const { LocalStore } = require('./local-store');

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
      maxSockets: options.maxSockets,
      stats: options.stats,
    })
    : new LocalStore({ root: location.path, stats: options.stats });
  return { store, location };
}

module.exports = { openStore, targetConnection };
