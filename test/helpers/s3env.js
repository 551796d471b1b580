'use strict';
// Test-side access to the MinIO started by minio-global-setup.js (connection
// passed through process.env). Everything here throws on failure.

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawn } = require('child_process');
const {
  S3Client, CreateBucketCommand, PutObjectCommand, ListObjectsV2Command,
  CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand,
} = require('@aws-sdk/client-s3');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'bin', 's3blitz.js');

function connection() {
  const { S3BLITZ_TEST_ENDPOINT: endpoint, S3BLITZ_TEST_ACCESS_KEY: accessKeyId,
    S3BLITZ_TEST_SECRET_KEY: secretAccessKey, S3BLITZ_TEST_REGION: region } = process.env;
  if (!endpoint || !accessKeyId || !secretAccessKey) {
    throw new Error('S3BLITZ_TEST_* not set: integration tests must run through the jest ' +
      '"integration" project (its globalSetup starts MinIO), e.g. npm run test:integration');
  }
  return { endpoint, accessKeyId, secretAccessKey, region: region || 'us-east-1' };
}

// Empty HOME and AWS config/credentials files so a developer's ~/.aws
// (profiles, SSO, credential_process, region) never leaks in. Created by the
// global setup (and removed by its teardown: exit handlers in jest workers are
// unreliable).
function emptyAwsHome() {
  const home = process.env.S3BLITZ_TEST_HOME;
  if (!home || !fs.existsSync(path.join(home, '.aws', 'credentials'))) {
    throw new Error('S3BLITZ_TEST_HOME not set up: run through the jest "integration" project');
  }
  return home;
}

/**
 * Environment for spawning the CLI against the test MinIO. Built from scratch
 * (not process.env) so AWS_PROFILE, AWS_SESSION_TOKEN, proxies, FORCE_COLOR...
 * of the developer cannot change test behaviour.
 */
function testEnv() {
  const c = connection();
  const home = emptyAwsHome();
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    AWS_CONFIG_FILE: path.join(home, '.aws', 'config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, '.aws', 'credentials'),
    AWS_ACCESS_KEY_ID: c.accessKeyId,
    AWS_SECRET_ACCESS_KEY: c.secretAccessKey,
    AWS_REGION: c.region,
    AWS_ENDPOINT_URL: c.endpoint,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

let shared;
/**
 * S3Client for the test MinIO. Without overrides returns one shared client
 * (connection reuse; don't destroy() it); with overrides a new one.
 */
function s3client(overrides) {
  if (!overrides && shared) return shared;
  const c = connection();
  const client = new S3Client({
    endpoint: c.endpoint,
    region: c.region,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
    forcePathStyle: true,
    // Newer SDKs add CRC32 checksums by default; keep requests plain like
    // most S3-compatible stores expect.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...overrides,
  });
  if (!overrides) shared = client;
  return client;
}

let bucketSeq = 0;
/** Unique valid bucket name: lowercase [a-z0-9-], 3..63 chars, alnum at both ends. */
function uniqueBucket(prefix = 't') {
  const clean = String(prefix).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 't';
  const suffix = [Date.now().toString(36), process.pid.toString(36), (bucketSeq++).toString(36),
    crypto.randomBytes(3).toString('hex')].join('-');
  const head = clean.slice(0, 62 - suffix.length).replace(/-+$/, '');
  return `${head || 't'}-${suffix}`;
}

/** Creates a bucket (default: a unique name) and returns its name. */
async function createBucket(name = uniqueBucket()) {
  await s3client().send(new CreateBucketCommand({ Bucket: name }));
  return name;
}

/**
 * Uploads many small objects in parallel. keysOrItems: strings (body = the
 * key's UTF-8 bytes) or {key, body, params (more PutObject parameters)}. Returns the keys in input order.
 */
async function putObjects(bucket, keysOrItems, { concurrency = 32 } = {}) {
  const items = keysOrItems.map((x) => (typeof x === 'string' ? { key: x } : x));
  const client = s3client();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const { key, body, params } = items[next++];
      try {
        await client.send(new PutObjectCommand({
          Bucket: bucket, Key: key, Body: body ?? Buffer.from(key, 'utf8'), ...params,
        }));
      } catch (e) {
        e.message = `PutObject ${bucket}/${JSON.stringify(key)} failed: ${e.message}`;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return items.map((i) => i.key);
}

/**
 * Uploads one object in parts, so its ETag has a "-N" suffix. parts: Buffers, or sizes
 * (each part then filled with its own byte). Returns the object's ETag.
 */
async function putMultipart(bucket, key, parts, { client = s3client(), params = {} } = {}) {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...params }));
  const done = [];
  for (let i = 0; i < parts.length; i++) {
    const Body = Buffer.isBuffer(parts[i]) ? parts[i] : Buffer.alloc(parts[i], 97 + (i % 26));
    const out = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1, Body }));
    done.push({ PartNumber: i + 1, ETag: out.ETag });
  }
  const out = await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }));
  return out.ETag;
}

// EncodingType=url is mandatory for adversarial keys: XML 1.0 cannot carry
// most control characters, and MinIO then replaces them (and U+FFFE/U+FFFF)
// with U+FFFD in plain listings. In S3's url-encoding '+' is a space.
const decodeS3Key = (k) => decodeURIComponent(k.replace(/\+/g, ' '));

/**
 * Ground truth listing: plain sequential ListObjectsV2 walk. Returns the
 * SDK's Contents entries ({Key, Size, ETag, LastModified, ...}) with Key decoded.
 * Note: MinIO rejects Prefix/StartAfter values with a "." or ".." path segment.
 */
async function sequentialList(bucket, { prefix, startAfter } = {}) {
  const out = [];
  let token;
  do {
    const r = await s3client().send(new ListObjectsV2Command({
      Bucket: bucket, Prefix: prefix, StartAfter: startAfter, ContinuationToken: token, EncodingType: 'url',
    }));
    for (const o of r.Contents || []) out.push({ ...o, Key: decodeS3Key(o.Key) });
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/**
 * Runs `node bin/s3blitz.js ...args` against the test MinIO.
 * opts.env is merged over testEnv() (undefined deletes a variable);
 * opts.input is written to stdin (stdin is closed either way).
 * Resolves {code, signal, stdout, stderr, stdoutBytes (stdout as a Buffer, for binary output)};
 * rejects if it runs past timeout.
 */
function runCli(args, { env = {}, input, timeout = 120e3, cwd = REPO_ROOT } = {}) {
  const fullEnv = { ...testEnv(), ...env };
  for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: fullEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.stdin.on('error', () => {}); // CLI may exit without reading stdin (EPIPE)
    child.stdin.end(input);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`s3blitz ${args.join(' ')} timed out after ${timeout}ms\n` +
        `stdout:\n${Buffer.concat(out).toString().slice(-4000)}\nstderr:\n${Buffer.concat(err).toString().slice(-4000)}`));
    }, timeout);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const bytes = Buffer.concat(out);
      resolve({ code, signal, stdout: bytes.toString('utf8'), stdoutBytes: bytes, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

// Connection options for library calls (s3blitz.copy({...}, ...libOptions())).
function libOptions() {
  const c = connection();
  return { endpointUrl: c.endpoint, region: 'us-east-1', credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey } };
}

module.exports = {
  REPO_ROOT, connection, libOptions, testEnv, s3client, uniqueBucket, createBucket, putObjects, putMultipart,
  sequentialList, decodeS3Key, runCli,
};
