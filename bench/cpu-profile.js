'use strict';
// Where a bench row's CPU goes: the row's s3blitz command run once more under `node
// --cpu-prof` (after the measured run, so sampling costs the measured figures nothing), and
// the V8 profiles it leaves, one per thread, summed by function. Self time only: a function's
// own samples, with native work (hashing, socket writes) counted in the JavaScript function
// that called it, as V8 samples it.
const fs = require('node:fs');
const path = require('node:path');

// How a function is named in the summary: "file function" for s3blitz's own code, the
// package for dependencies, the module for Node's, and V8's own entries as they are.
function label(frame) {
  const { functionName, url } = frame;
  const fn = functionName || '(anonymous)';
  if (!url) return fn; // (garbage collector), (program), (root), (idle)
  if (url.startsWith('wasm://')) return `wasm ${fn}`;
  if (url.startsWith('node:')) return `${url.slice(5)} ${fn}`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `${pkg[1]} ${fn}`;
  const own = url.match(/\/((?:src|bin)\/.*)$/);
  return `${own ? own[1] : path.basename(url)} ${fn}`;
}

// One profile: total sampled CPU (ms, idle excluded) and self time per label.
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map();
  let total = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    const dt = (timeDeltas[i] || 0) / 1000;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const l = label(node.callFrame);
    ms.set(l, (ms.get(l) || 0) + dt);
    total += dt;
  }
  return { total, ms };
}

// The profiles in dir (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the
// main thread, the others worker threads: the request thread), summed per thread:
// [{thread, ms, top: [{name, ms}]}], the top `top` functions of each.
function summarizeProfiles(dir, { top = 8 } = {}) {
  const threads = new Map();
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
    const tid = Number(f.split('.')[4]);
    const thread = tid === 0 ? 'main' : `worker ${tid}`;
    const { total, ms } = selfTimes(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    const t = threads.get(thread) || { thread, ms: 0, by: new Map() };
    t.ms += total;
    for (const [k, v] of ms) t.by.set(k, (t.by.get(k) || 0) + v);
    threads.set(thread, t);
  }
  return [...threads.values()].map((t) => ({
    thread: t.thread,
    ms: t.ms,
    top: [...t.by].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms })),
  }));
}

// A bench spec (bench/run.js blitzSpec) that writes its profiles into dir.
function profiledSpec(spec, dir) {
  return { ...spec, args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...spec.args], line: `node --cpu-prof ${spec.line}` };
}

module.exports = { summarizeProfiles, profiledSpec, selfTimes, label };
