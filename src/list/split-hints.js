'use strict';
// Split hints: where an earlier listing of the same bucket and prefix found its keys, a
// few hundred keys spread evenly over them. The next listing starts with its range already
// cut there, so every request slot has work on the first round trip. Hints are guesses
// like any split point: exactly-once never depends on them, and a stale or wrong hint
// costs at most some requests. They come from the cache of earlier listings
// ($XDG_CACHE_HOME/s3blitz/split-hints/), from --split-hints FILE (the JSON this module
// writes, a list of keys one per line, or an S3 Inventory CSV), and hold keys only.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { compareKeys, keyProblem } = require('../keys/order');
const { UsageError } = require('../errors');
const T = require('../plan/tuning').values;

// Hints kept: SPLIT_HINTS (tuning.js), enough for a few rounds of requests at any concurrency.
const FORMAT = 's3blitz split hints 1';

function cacheDir(env = process.env) {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 's3blitz', 'split-hints');
}

// One file per endpoint, bucket and prefix: the name says nothing of them (a hash).
function cacheFile(where, env) {
  const id = crypto.createHash('sha256').update(JSON.stringify([where.endpoint || '', where.bucket, where.prefix || ''])).digest('hex').slice(0, 32);
  return path.join(cacheDir(env), `${id}.json`);
}

// Keys seen at page ends, thinned as they come so that about SPLIT_HINTS..2×SPLIT_HINTS remain,
// spread evenly by the count of keys between them.
class HintCollector {
  constructor() {
    this.keys = [];
    this.every = 1;
    this.seen = 0;
  }

  add(key) {
    if (this.seen++ % this.every !== 0) return;
    this.keys.push(key);
    if (this.keys.length >= 2 * T.SPLIT_HINTS) {
      this.keys.sort(compareKeys);
      this.keys = this.keys.filter((_, i) => i % 2 === 1);
      this.every *= 2;
    }
  }

  result() {
    return [...new Set(this.keys)].sort(compareKeys);
  }
}

// Every n-th of many keys, as hints.
function thin(keys) {
  const step = Math.max(1, Math.floor(keys.length / T.SPLIT_HINTS));
  const out = [];
  for (let i = step - 1; i < keys.length; i += step) out.push(keys[i]);
  return out;
}

// One CSV line's fields (quoted as S3 Inventory writes them).
function csvFields(line) {
  const out = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      for (i++; i < line.length; i++) {
        if (line[i] === '"') { if (line[i + 1] === '"') { v += '"'; i++; } else break; } else v += line[i];
      }
      out.push(v);
      i += 2; // the closing quote and the comma
    } else {
      const j = line.indexOf(',', i);
      out.push(line.slice(i, j < 0 ? line.length : j));
      i = j < 0 ? line.length + 1 : j + 1;
    }
  }
  return out;
}

// Hints from a file: this module's JSON, an S3 Inventory CSV (bucket, key, ...; keys
// URL-encoded as Inventory writes them), or one key per line.
function readHintsFile(file) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch (err) { throw new UsageError(`--split-hints: cannot read ${file}: ${err.code || err.message}`); }
  let keys;
  if (/^\s*\{/.test(text)) {
    let doc;
    try { doc = JSON.parse(text); } catch { throw new UsageError(`--split-hints: ${file} is not valid JSON`); }
    if (!doc || !Array.isArray(doc.keys)) throw new UsageError(`--split-hints: ${file} has no "keys" list`);
    keys = doc.keys;
  } else if (/\.csv$/i.test(file) || /^"[^"\n]*","/.test(text)) {
    keys = [];
    for (const line of text.split(/\r?\n/)) {
      if (!line) continue;
      const f = csvFields(line);
      if (f.length < 2) continue;
      try { keys.push(decodeURIComponent(f[1].replace(/\+/g, ' '))); } catch { throw new UsageError(`--split-hints: ${file} has a key that is not URL-encoded as S3 Inventory writes it: ${JSON.stringify(f[1])}`); }
    }
  } else {
    keys = text.split(/\r?\n/).filter((k) => k !== '');
  }
  return thin(keys.filter((k) => typeof k === 'string' && keyProblem(k) === null).sort(compareKeys));
}

function loadCachedHints(where, env) {
  try {
    const doc = JSON.parse(fs.readFileSync(cacheFile(where, env), 'utf8'));
    if (doc.format !== FORMAT || !Array.isArray(doc.keys)) return [];
    return doc.keys.filter((k) => typeof k === 'string' && keyProblem(k) === null);
  } catch {
    return [];
  }
}

// Written whole to a temporary file and renamed, so a reader never sees half of it.
function saveCachedHints(where, keys, env) {
  if (keys.length < 2) return;
  const file = cacheFile(where, env);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ format: FORMAT, created: new Date().toISOString(), keys }) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // A cache that cannot be written costs the next listing its head start, nothing else.
  }
}

module.exports = { HintCollector, readHintsFile, loadCachedHints, saveCachedHints, cacheFile, TARGET: T.SPLIT_HINTS };
