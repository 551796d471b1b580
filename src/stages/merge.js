'use strict';
// merge: the results of a job's shards (stages/shards.js, --result) combined into what one
// process would have reported, once it is sure they are all there: every shard of the plan,
// each once, of one command over one source, their ranges meeting end to end from the
// source's start to its end. A shard missing, or ranges with a gap or an overlap (two plans
// that cut differently), stop with exit 3 naming them: an incomplete job never looks done.
const fs = require('fs');
const { openStore } = require('../stores/open-store');
const { Listing } = require('../list/listing');
const { openListing } = require('./source-listing');
const { compareKeys } = require('../keys/order');
const { FatalError, SafetyError, UsageError } = require('../errors');
const { mergeSummaries } = require('./summary-merge');
const { RESULT_VERSION, connectionOf } = require('./shards');

const TALLIES = ['copied', 'failed', 'changed', 'skipped', 'vanished', 'planned', 'deleted'];
const MAX_NAMED = 10000;

/** Reads results: files, and s3:// prefixes (every .json below them). */
async function readResults(paths, options = {}) {
  const out = [];
  for (const p of paths) {
    if (!String(p).startsWith('s3://')) {
      let text;
      try { text = fs.readFileSync(p, 'utf8'); } catch (err) { throw new UsageError(`${p}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`); }
      out.push(parse(text, p));
      continue;
    }
    const { listing, store, close } = openListing(Listing, { ...connectionOf(options), source: p, splitHints: false });
    try {
      for await (const item of listing.items()) {
        if (!item.Key.endsWith('.json')) continue;
        const got = await store.getSmallObject({ Key: item.Key });
        out.push(parse(got.Body.toString('utf8'), `s3://${store.bucket}/${item.Key}`));
      }
    } finally { close(); }
  }
  return out;
}

function parse(text, where) {
  let doc;
  try { doc = JSON.parse(text); } catch { throw new UsageError(`${where}: not a result (JSON written with --result)`); }
  if (!doc || doc.version !== RESULT_VERSION || !doc.command || !doc.result) throw new UsageError(`${where}: not a result of this version of s3blitz (--result)`);
  return { ...doc, where };
}

const sum = (xs, f) => xs.reduce((n, x) => n + (f(x) || 0), 0);
const tally = (rs, k) => ({ objects: sum(rs, (r) => r[k] && r[k].objects), bytes: sum(rs, (r) => r[k] && r[k].bytes) });

// The request statistics of several runs, added up (rates and means are not).
function mergeStats(stats) {
  const out = { requests: {} };
  for (const s of stats.filter(Boolean)) {
    for (const [k, v] of Object.entries(s)) {
      if (k === 'requests') for (const [t, n] of Object.entries(v || {})) out.requests[t] = (out.requests[t] || 0) + n;
      else if (typeof v === 'number' && !['efficiency', 'meanInflight', 'maxInflight'].includes(k)) out[k] = (out[k] || 0) + v;
    }
  }
  out.efficiency = out.listRequests ? Number(((out.keysUnique || 0) / (out.listRequests * 1000)).toFixed(4)) : null;
  return out;
}

/**
 * Combines shard results. results: what readResults gives (or the documents --result wrote).
 * options: maxDelete (the deletes of all shards together, checked against it: exit 4 over it).
 * Resolves to {command, shards: {of, present, missing}, ...the merged result}.
 */
function mergeResults(results, options = {}) {
  if (!results.length) throw new UsageError('merge: no results given');
  const first = results[0];
  const command = first.command;
  for (const r of results) {
    if (r.command !== command) throw new FatalError(`${r.where}: a result of ${r.command}, not of ${command}: results of one job only`);
    if (!r.shard) throw new FatalError(`${r.where}: not a shard's result (it was run without --shard/--shards/--plan)`);
    const a = r.result, b = first.result;
    if (a.source !== b.source || a.target !== b.target) throw new FatalError(`${r.where}: a result of ${a.source}${a.target ? ` to ${a.target}` : ''}, not of ${b.source}${b.target ? ` to ${b.target}` : ''}`);
  }
  const of = first.shard.of;
  // One result per shard: a shard run twice counts as its latest run.
  const byIndex = new Map();
  for (const r of results) {
    if (r.shard.of !== of) throw new FatalError(`${r.where}: shard ${r.shard.index} of ${r.shard.of}, where the others are of ${of}`);
    const prev = byIndex.get(r.shard.index);
    if (!prev || prev.finishedAt < r.finishedAt) byIndex.set(r.shard.index, r);
  }
  const missing = [];
  for (let i = 0; i < of; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length) throw new FatalError(`merge: shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${of} missing (${byIndex.size} found): run ${missing.length > 1 ? 'them' : 'it'} again`);
  const shards = [...byIndex.values()].sort((x, y) => x.shard.index - y.shard.index);
  checkTiling(shards);
  const rs = shards.map((r) => r.result);
  const out = { command, shards: { of, present: shards.length, missing: [] }, source: first.result.source, target: first.result.target };
  out.complete = rs.every((r) => r.complete !== false);
  out.stats = mergeStats(rs.map((r) => r.stats));
  if (command === 'summarize') Object.assign(out, mergeSummaries(rs));
  if (['copy', 'sync'].includes(command)) {
    for (const k of TALLIES) if (rs.some((r) => r[k])) out[k] = tally(rs, k);
    out.failures = rs.flatMap((r) => r.failures || []).slice(0, MAX_NAMED);
    out.collisions = sum(rs, (r) => r.collisions);
    out.interrupted = rs.some((r) => r.interrupted);
    out.dryrun = rs.some((r) => r.dryrun);
    out.ok = rs.every((r) => r.ok !== false);
  }
  if (['compare', 'sync'].includes(command) && rs.some((r) => r.classes)) {
    out.classes = {};
    for (const c of Object.keys(rs.find((r) => r.classes).classes)) out.classes[c] = tally(rs.map((r) => r.classes || {}), c);
  }
  if (['compare', 'sync'].includes(command) && rs.some((r) => r.judgedBy)) {
    out.judgedBy = {};
    for (const r of rs) for (const [how, n] of Object.entries(r.judgedBy || {})) out.judgedBy[how] = (out.judgedBy[how] || 0) + n;
  }
  if (command === 'compare') {
    out.identical = rs.every((r) => r.identical);
    out.judgedBySize = sum(rs, (r) => r.judgedBySize);
    out.verified = out.identical && out.judgedBySize === 0;
    out.method = first.result.method;
    out.unmappable = rs.flatMap((r) => r.unmappable || []).slice(0, MAX_NAMED);
  }
  if (command === 'sync') {
    // As one sync reports it: why deletes were skipped (each shard's reason once), or null.
    const why = [...new Set(rs.map((r) => r.deleteRefused).filter(Boolean))];
    out.deleteRefused = why.length ? why.join('; ') : null;
  }
  if (command === 'rm') {
    for (const k of ['deleted', 'failed', 'planned']) if (rs.some((r) => r[k])) out[k] = tally(rs, k);
    out.ok = rs.every((r) => r.ok !== false);
  }
  if (options.maxDelete !== undefined) {
    const deletes = out.deleted ? out.deleted.objects : 0;
    const planned = command === 'sync' && out.dryrun ? sum(rs, (r) => r.deleted && r.deleted.objects) : deletes;
    if (planned > options.maxDelete) throw new SafetyError(`the shards ${out.dryrun ? 'would delete' : 'deleted'} ${planned} objects in all, more than --max-delete ${options.maxDelete}`);
  }
  return out;
}

// The shards' ranges meet end to end: the first from the plan's start, each from where the
// one before stopped, the last to the plan's end. Empty shards hold nothing and are skipped.
function checkTiling(shards) {
  const range = shards[0].shard.plan && shards[0].shard.plan.range;
  if (!range) return;
  let at = range.startAfter ?? null;
  for (const r of shards) {
    const s = r.shard;
    if (JSON.stringify(s.plan && s.plan.range) !== JSON.stringify(range)) throw new FatalError(`${r.where}: shard ${s.index} was planned over another range than shard ${shards[0].shard.index}`);
    if (s.empty) continue;
    if ((s.startAfter ?? null) !== at) {
      const what = at === null || (s.startAfter !== null && compareKeys(s.startAfter, at) > 0) ? 'a gap' : 'an overlap';
      throw new FatalError(`merge: ${what} before shard ${s.index}: it starts after ${JSON.stringify(s.startAfter)} where the shard before it stopped at ${JSON.stringify(at)} (its processes planned differently: plan once with s3blitz plan and give every shard --plan FILE)`);
    }
    at = s.stopAt ?? null;
  }
  if (at !== (range.stopAt ?? null)) throw new FatalError(`merge: the last shard stops at ${JSON.stringify(at)}, not at the end of the source`);
}

/** Reads and merges: paths of results (files, s3:// prefixes). */
async function merge(paths, options = {}) {
  return mergeResults(await readResults(Array.isArray(paths) ? paths : [paths], options), options);
}

module.exports = { merge, mergeResults, readResults, checkTiling, mergeStats, openStore };
