'use strict';
// Builds S3 clients: endpoint, region, profile, the standard credential chain, and a
// keep-alive socket pool as large as the concurrency (the SDK's default handler allows
// 50 sockets, which silently caps parallel requests).
const http = require('http');
const https = require('https');

// The SDK warns once per process on Node < 22 that future releases will need Node 22.
// This release supports Node 20 (see package.json engines), so that notice is not for
// our users; every other warning still shows. A user who sets the variable wins.
if (process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED === undefined) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
}
const { S3Client } = require('@aws-sdk/client-s3');
const { NodeHttpHandler } = require('@smithy/node-http-handler');
const { poolSize } = require('./http-pool');
const { checkProfile, configuredEndpoint } = require('./aws-config');
const { ExpressSessions } = require('./express-sessions');

function keepAliveAgents(maxSockets) {
  const n = poolSize(maxSockets);
  // As many idle sockets kept as may be busy: Node's default of 256 closes the rest after
  // each burst of hundreds of copies, and they are then opened again.
  const o = { keepAlive: true, maxSockets: n, maxFreeSockets: n, scheduling: 'lifo' };
  return { http: new http.Agent(o), https: new https.Agent(o) };
}

// The endpoint when no --endpoint-url is given: the environment, else the profile's
// configured one (aws-config.js).
function endpointFromEnv(env = process.env, profile) {
  return configuredEndpoint(profile, env);
}

// Anonymous requests (--no-sign-request): no credentials are looked up and nothing is signed.
const ANONYMOUS = async () => ({ accessKeyId: '', secretAccessKey: '' }); // fresh: the SDK marks it
const unsigned = { sign: async (request) => request };

const QUIET_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * @param {object} o endpointUrl, region, profile, forcePathStyle, maxSockets, credentials, maxAttempts
 */
function createS3Client(o = {}) {
  if (!o.noSignRequest) checkProfile(o.profile);
  const endpoint = o.endpointUrl || endpointFromEnv(process.env, o.profile);
  const agents = keepAliveAgents(o.maxSockets);
  const config = {
    region: o.region || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || undefined,
    endpoint,
    forcePathStyle: o.forcePathStyle !== undefined ? o.forcePathStyle : Boolean(endpoint),
    followRegionRedirects: true,
    // S3-compatible stores reject the optional checksum headers newer SDKs add.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: o.maxAttempts || 5,
    // Without a logger of its own the SDK warns on the console when a streamed PutObject fails
    // ("non-retryable streaming request"); s3blitz reports the failure itself, once.
    logger: QUIET_LOGGER,
    requestHandler: new NodeHttpHandler({
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: o.connectionTimeout || 10000,
      requestTimeout: o.requestTimeout || 300000,
    }),
  };
  if (o.profile) config.profile = o.profile;
  if (o.credentials) config.credentials = o.credentials;
  if (o.noSignRequest) { config.credentials = ANONYMOUS; config.signer = unsigned; }
  if (!config.region && !o.profile) config.region = 'us-east-1';
  // Directory buckets' sessions, renewed when a store ends one early (express-sessions.js).
  const sessions = new ExpressSessions();
  config.s3ExpressIdentityProvider = sessions;
  let client = new S3Client(config);
  sessions.client = client;
  if (!config.region) {
    // A profile may name the region; fall back to us-east-1 when it does not.
    const resolve = client.config.region;
    client.config.region = async () => {
      try { return await resolve(); } catch { return 'us-east-1'; }
    };
  }
  return client;
}

module.exports = { createS3Client, endpointFromEnv, ANONYMOUS };
