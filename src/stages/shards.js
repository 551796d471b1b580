'use strict';
// One job split into shards that processes on other machines take one each, under whatever
// runs them (a Kubernetes Indexed Job, an AWS Batch array job, a Slurm job array): a plan cuts
// the source into N key ranges (plan/shard-plan.js), and a command given a shard reads only
// its range, with a journal of its own (the range is part of the command a journal is named
// after). The shard's index comes from --shard, else from the engine's variable.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Listing } = require('../list/listing');
const { openListing } = require('./source-listing');
const { openStore } = require('../stores/open-store');
const { planShards, defaultBudget } = require('../plan/shard-plan');
const { planDirectoryShards } = require('../plan/directory-shards');
const { directoryPage } = require('../list/directory-lister');
const { refuseRangeOnDirectoryBucket } = require('../stores/directory-bucket');
const { UsageError } = require('../errors');
const { COMPUTED_RANGE, option } = require('../options');

// The variables engines give each task of an array its index in. Each is the shard's index
// as is: Slurm's SLURM_ARRAY_TASK_ID too, never less SLURM_ARRAY_TASK_MIN, so that a rerun of
// the shards merge names (sbatch --array=7,31) takes shards 7 and 31, not 0 and 24.
const INDEX_VARIABLES = [
  ['JOB_COMPLETION_INDEX', 'a Kubernetes Indexed Job'],
  ['AWS_BATCH_JOB_ARRAY_INDEX', 'an AWS Batch array job'],
  ['SLURM_ARRAY_TASK_ID', 'a Slurm job array'],
];

const PLAN_VERSION = 1;

/**
 * A plan of `shards` key ranges of the source, from a bounded number of list requests.
 * Options: those of a listing (source, range, connection), shards, planBudget.
 */
async function plan(options = {}) {
  const n = option(options, 'shards');
  if (!n) throw new UsageError('plan needs --shards N');
  const { listing, store, close } = openListing(Listing, listingOptions(options));
  try {
    await store.open();
    // A directory bucket takes no StartAfter: its shards are sets of whole directories.
    const budget = option(options, 'planBudget');
    const p = store.directoryBucket
      ? await planDirectoryShards(directoryReader(store, listing), listing.range, n, { budget: budget ?? defaultBudget(n) })
      : await planShards(store, listing.range, n, { budget, signal: listing.signal, stats: listing.stats });
    const r = listing.range;
    return {
      version: PLAN_VERSION, source: listing.location.text,
      range: { prefix: r.prefix, startAfter: r.after || null, stopAt: r.stop },
      shards: n, requests: p.requests, estimatedObjects: p.estimatedObjects, exact: p.exact, createdAt: new Date().toISOString(),
      ranges: p.ranges,
    };
  } finally {
    close();
  }
}

// One checked page of a directory bucket's directory, as the directory planner reads it.
function directoryReader(store, listing) {
  return async (dir, token, o) => {
    const page = await directoryPage(store, dir, token, { ...o, signal: listing.signal, stats: listing.stats });
    const keys = new Array(page.chunk.length);
    for (let k = 0; k < keys.length; k++) keys[k] = page.chunk.key(k);
    return { keys, prefixes: page.prefixes, next: page.next };
  };
}

// A listing's options without the shard's own (a plan lists the whole source).
function listingOptions(options) {
  const o = { ...options };
  for (const k of ['shard', 'shards', 'plan', 'planBudget', 'result']) delete o[k];
  o.result = undefined;
  return o;
}

// "I/N" or "I" (0-based).
function parseShard(text) {
  const m = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(String(text));
  if (!m) throw new UsageError(`--shard must be I/N (0-based index I of N shards), not ${JSON.stringify(String(text))}`);
  return { index: Number(m[1]), of: m[2] === undefined ? undefined : Number(m[2]) };
}

/** Which shard this process is: {index, of?, via} from options.shard, else the engine's variable; null: none. */
function shardIndex(options, env = process.env) {
  if (options.shard !== undefined && options.shard !== null) return { ...parseShard(options.shard), via: '--shard' };
  for (const [name, engine] of INDEX_VARIABLES) {
    if (env[name] === undefined || env[name] === '') continue;
    const text = String(env[name]).trim();
    if (!/^\d+$/.test(text)) throw new UsageError(`${name} (${engine}) is ${JSON.stringify(env[name])}, not a shard index`);
    return { index: Number(text), via: `${name} (${engine})` };
  }
  return null;
}

function readPlan(p) {
  if (typeof p === 'object' && p !== null) return p;
  let text;
  try { text = fs.readFileSync(p, 'utf8'); } catch (err) { throw new UsageError(`--plan ${p}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`); }
  let out;
  try { out = JSON.parse(text); } catch { throw new UsageError(`--plan ${p}: not a plan (JSON written by s3blitz plan)`); }
  if (out.version !== PLAN_VERSION || !Array.isArray(out.ranges) || out.ranges.length !== out.shards) throw new UsageError(`--plan ${p}: not a plan of this version of s3blitz`);
  return out;
}

/**
 * The shard this process takes, when asked for one (options shard, shards, plan, or an
 * engine's index variable together with shards or plan): {index, of, via, plan, range:
 * {startAfter, stopAt, empty}}; null when the command is not sharded.
 */
async function resolveShard(options, env = process.env) {
  const asked = options.shard !== undefined || options.shards !== undefined || options.plan !== undefined;
  if (!asked) return null;
  // The caller's own range, before the shard's takes its place.
  refuseRangeOnDirectoryBucket(options);
  const who = shardIndex(options, env);
  if (!who) throw new UsageError(`which shard is this? give --shard I/N, or run under an engine that sets ${INDEX_VARIABLES.map(([v]) => v).join(', ')}`);
  let p;
  if (options.plan !== undefined) p = readPlan(options.plan);
  else {
    const n = who.of ?? option(options, 'shards');
    if (!n) throw new UsageError('--shard I needs --shards N or --plan FILE (or --shard I/N)');
    // The same N gives the same ranges in every process: see plan/shard-plan.js.
    p = await plan({ ...options, shards: n });
  }
  const n = p.shards;
  if (options.shards !== undefined && option(options, 'shards') !== n) throw new UsageError(`--shards ${options.shards} but the plan has ${n} shards`);
  if (who.of !== undefined && who.of !== n) throw new UsageError(`--shard ${who.index}/${who.of} but the plan has ${n} shards`);
  if (who.index >= n) {
    const hint = who.via === '--shard' ? '' : `: an array's indices are the shards' indices, ${n === 1 ? '0' : `0-${n - 1}`}`;
    throw new UsageError(`shard ${who.index} (from ${who.via}) is not one of the plan's ${n} shards (0 to ${n - 1})${hint}`);
  }
  const r = p.ranges[who.index];
  return {
    index: who.index, of: n, via: who.via, plan: { source: p.source, requests: p.requests, estimatedObjects: p.estimatedObjects, range: p.range },
    range: r.empty ? { empty: true, startAfter: null, stopAt: null } : { empty: false, startAfter: r.startAfter, stopAt: r.stopAt },
  };
}

/** The command's options for its shard: the shard's range in place of the source's. */
function shardOptions(options, shard) {
  const o = listingOptions(options);
  o.mergeState = true; // summarize: the counters merge needs
  o[COMPUTED_RANGE] = true; // the plan's range, not the caller's (kept on a directory bucket too)
  if (shard.range.empty) return { ...o, emptyRange: true };
  o.startAfter = shard.range.startAfter ?? undefined;
  o.stopAt = shard.range.stopAt ?? undefined;
  return o;
}

// What a result says of its shard (merge checks the shards tile the source with it).
function shardInfo(shard) {
  return { index: shard.index, of: shard.of, via: shard.via, empty: shard.range.empty, startAfter: shard.range.startAfter, stopAt: shard.range.stopAt, plan: shard.plan };
}

/** What a shard's range is, in words. */
function shardText(shard) {
  if (shard.range.empty) return 'the plan gives it no keys';
  const { startAfter: a, stopAt: b } = shard.range;
  return `keys ${a === null ? 'from the start' : `after ${JSON.stringify(a)}`} ${b === null ? 'to the end' : `up to ${JSON.stringify(b)}`}`;
}

/**
 * fn (a library command) taking shard, shards and plan options too, and result: where to
 * write the result as JSON (a file, or an s3:// URL so shards on other machines leave it in a
 * bucket; "%i" in it is the shard's index), for merge.
 */
function sharded(name, fn) {
  return async (options = {}, ...rest) => {
    const shard = await resolveShard(options);
    const { result: where } = options;
    const opts = shard ? shardOptions(options, shard) : { ...options, result: undefined };
    if (shard && options.log) options.log(`shard ${shard.index} of ${shard.of} (from ${shard.via}): ${shardText(shard)}`);
    const r = await fn(opts, ...rest);
    const out = shard && r && typeof r === 'object' && !Array.isArray(r) ? { ...r, shard: shardInfo(shard) } : r;
    if (where !== undefined) await writeResult(where, name, out, options, shard);
    return out;
  };
}

const RESULT_VERSION = 1;

/** Writes a command's result where --result says, as JSON that merge reads; resolves to where it went. */
async function writeResult(where, command, result, options = {}, shard = null) {
  const target = String(where).replace(/%i/g, shard ? String(shard.index) : '0');
  const doc = { version: RESULT_VERSION, command, finishedAt: new Date().toISOString(), shard: result && result.shard ? result.shard : null, result };
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (!target.startsWith('s3://')) {
    const tmp = `${target}.tmp-${process.pid}`;
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, target); // whole or not at all: merge never reads half a result
    return target;
  }
  const slash = target.indexOf('/', 5);
  const { store } = openStore({ ...connectionOf(options), source: target.slice(0, slash < 0 ? target.length : slash + 1) }, 'source');
  try {
    if (slash < 0 || slash === target.length - 1) throw new UsageError(`--result ${where}: an s3:// URL needs a key after the bucket`);
    const body = Buffer.from(text);
    await store.putObject({ Key: target.slice(slash + 1), Body: body, ContentLength: body.length, ContentMD5: crypto.createHash('md5').update(body).digest('base64'), ContentType: 'application/json' });
  } finally { store.destroy(); }
  return target;
}

// The connection options of a command, for the bucket its results go to.
function connectionOf(o) {
  const out = {};
  for (const k of ['endpointUrl', 'region', 'profile', 'forcePathStyle', 'credentials', 'requestPayer']) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

module.exports = { plan, shardText, resolveShard, shardIndex, shardOptions, shardInfo, sharded, writeResult, connectionOf, parseShard, readPlan, INDEX_VARIABLES, PLAN_VERSION, RESULT_VERSION };
