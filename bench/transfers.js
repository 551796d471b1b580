'use strict';
// Transfers side by side on the fake S3 (bench/run.js --only transfers, or part of a full
// run): server-side copies of multipart-ETag sources (default and --keep-part-layout), large
// and small downloads and uploads, and copies under S3's per-prefix request limits, each by
// s3blitz and by aws-cli, s5cmd and rclone at their defaults and tuned. Every row checks
// what it produced: counts and bytes always; ETags for copies (the fake's digest of the
// target against the source's); every downloaded byte against the fake's body pattern; every
// uploaded object's ETag against the MD5s of the local file in the part sizes the tool used.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { runPeer, buildCommand } = require('./peers');
const { summarizeProfiles, profiledSpec } = require('./cpu-profile');
const { bodyMatches, GENERATORS, toExternalKey } = require('./fake-s3');

const KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

const SIZES = {
  full: {
    mpCopy: 30000, largeCount: 4, largeSize: 256 * MiB, smallFiles: 5000,
    prefixObjects: 100000, prefixes: 10, prefixRate: 1000, hotObjects: 30000, peerCapSec: 60,
  },
  quick: {
    mpCopy: 3000, largeCount: 4, largeSize: 32 * MiB, smallFiles: 1000,
    prefixObjects: 20000, prefixes: 10, prefixRate: 500, hotObjects: 6000, peerCapSec: 20,
  },
};
// Peers whose defaults copy a handful of objects at once get a slice (a day folder, or one
// host's folder) of the multipart-source copy, so the run stays short; rates are compared.
const SLOW_DEFAULTS = { aws: 'day', rclone: 'host' };
const RAMP_SEC = 3; // seconds of a limited copy not counted in its sustained rate

const fmt = (n, d = 0) => (n == null || Number.isNaN(n) ? '-' : Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));

// ---------------------------------------------------------------------------
// Local files, made once per run: random bytes (nothing a tool could compress or dedupe).
function makeFiles(dir, files) {
  fs.mkdirSync(dir, { recursive: true });
  const out = [];
  for (const { name, size } of files) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const fd = fs.openSync(file, 'w');
    const h = crypto.createHash('md5');
    for (let done = 0; done < size;) {
      const n = Math.min(16 * MiB, size - done);
      const b = crypto.randomBytes(n);
      h.update(b);
      fs.writeSync(fd, b);
      done += n;
    }
    fs.closeSync(fd);
    out.push({ key: name, size, md5: h.digest('hex') });
  }
  return out;
}

// The multipart ETag a file gets when uploaded in parts of these sizes.
function multipartEtag(file, parts) {
  const fd = fs.openSync(file, 'r');
  try {
    const md5s = [];
    let at = 0;
    for (const n of parts) {
      const b = Buffer.allocUnsafe(n);
      fs.readSync(fd, b, 0, n, at);
      at += n;
      md5s.push(crypto.createHash('md5').update(b).digest());
    }
    return `${crypto.createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${parts.length}`;
  } finally { fs.closeSync(fd); }
}

function walk(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(dir, r)); else out.push(r);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Checks, one per kind of row; each returns a list of problems (empty: the row is right).

async function checkCopy(fake, src, dst, { keepEtags, prefix = '' }) {
  const want = (await fake.objects(src)).filter((o) => o.key.startsWith(prefix));
  const got = await fake.objects(dst);
  const problems = [];
  if (got.length !== want.length) problems.push(`target holds ${got.length} objects, source ${want.length}`);
  const { contentEtag } = require('./fake-s3');
  const byKey = new Map(got.map((o) => [o.key, o]));
  let bad = 0;
  for (const o of want) {
    const g = byKey.get(o.key);
    const etag = keepEtags ? o.etag : contentEtag(o.etag);
    if (!g || g.size !== o.size || g.etag !== etag) bad++;
  }
  if (bad) problems.push(`${bad} objects differ from the source in key, size or ETag (${keepEtags ? 'ETags kept' : 'CopyObject ETags'})`);
  return { problems, objects: got.length, bytes: got.reduce((n, o) => n + o.size, 0) };
}

function checkDownload(dir, want) {
  const problems = [];
  const files = fs.existsSync(dir) ? walk(dir) : [];
  if (files.length !== want.length) problems.push(`${files.length} files, expected ${want.length}`);
  let bytes = 0, bad = 0;
  const byKey = new Map(want.map((o) => [o.key, o]));
  for (const f of files) {
    const o = byKey.get(f);
    const st = fs.statSync(path.join(dir, f));
    bytes += st.size;
    if (!o || st.size !== o.size) { bad++; continue; }
    const fd = fs.openSync(path.join(dir, f), 'r');
    try {
      const b = Buffer.allocUnsafe(Math.min(16 * MiB, o.size));
      for (let at = 0; at < o.size;) {
        const n = fs.readSync(fd, b, 0, Math.min(b.length, o.size - at), at);
        if (!bodyMatches(b.subarray(0, n), o.size, at)) { bad++; break; }
        at += n;
      }
    } finally { fs.closeSync(fd); }
  }
  if (bad) problems.push(`${bad} files missing, of the wrong size, or with the wrong bytes`);
  return { problems, objects: files.length, bytes };
}

async function checkUpload(fake, bucket, dir, files) {
  const got = new Map((await fake.objects(bucket)).map((o) => [o.key, o]));
  const problems = [];
  if (got.size !== files.length) problems.push(`bucket holds ${got.size} objects, expected ${files.length}`);
  let bad = 0, bytes = 0;
  for (const f of files) {
    const o = got.get(f.key);
    if (!o || o.size !== f.size) { bad++; continue; }
    bytes += o.size;
    // Single-part: the MD5 of the file; multipart: the MD5 of the parts' MD5s, in the tool's part sizes.
    const etag = o.parts ? multipartEtag(path.join(dir, f.key), o.parts) : f.md5;
    if (o.etag !== etag) bad++;
  }
  if (bad) problems.push(`${bad} objects missing, of the wrong size, or not holding the file's bytes`);
  return { problems, objects: got.size, bytes };
}

// Writes accepted per second, after the ramp, up to the last full second of writes.
function sustained(st) {
  const w = st.writesPerSecond || [];
  const first = w.findIndex((v) => v > 0);
  if (first < 0) return null;
  let last = w.length - 2; // the last second is partial
  while (last > first && !w[last]) last--;
  const from = first + RAMP_SEC;
  if (last < from) return null;
  let n = 0;
  for (let i = from; i <= last; i++) n += w[i] || 0;
  return n / (last - from + 1);
}

// ---------------------------------------------------------------------------

async function transfersSection(ctx) {
  const { fake, opts, peers, blitzSpec, note } = ctx;
  const size = SIZES[ctx.modeName];
  const E = fake.endpoint;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-bench-transfers-'));
  const rows = [];
  const peerList = opts.peers;

  // One measured run; check(r) -> {problems, objects, bytes}; prep() before (clear the target).
  const measure = async (row, spec, { prep, check, capSec, expect }) => {
    if (prep) await prep();
    await fake.resetStats();
    const r = await runPeer(spec, { timeoutMs: (capSec || ctx.timeoutSec) * 1000 });
    const st = await fake.stats();
    const capped = Boolean(capSec) && r.timedOut;
    const c = await check();
    const problems = [...c.problems];
    if (r.timedOut && !capped) problems.push(`timed out after ${ctx.timeoutSec}s`);
    else if (r.exitCode !== 0 && !capped) problems.push(`exit ${r.exitCode ?? 'signal ' + r.signal}`);
    if (capped) problems.length = 0; // a capped peer is measured by what it did in its time
    const writes = Object.entries(st.requests).filter(([k]) => k !== 'SlowDown').reduce((n, [, v]) => n + v, 0);
    const out = {
      group: 'transfers', ...row, line: spec.line, expected: expect, objects: c.objects, bytes: c.bytes,
      status: problems.length ? 'FAILED' : capped ? 'capped' : 'ok', problems,
      wallSec: r.wallSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024, exitCode: r.exitCode,
      requests: st.requests, slowDowns: st.requests.SlowDown || 0, totalRequests: writes + (st.requests.SlowDown || 0),
      sustained: sustained(st), fakeCpuSec: st.cpu.total,
    };
    out.rate = out.status === 'FAILED' ? null : c.objects / r.wallSec;
    out.mbps = out.status === 'FAILED' ? null : c.bytes / MiB / r.wallSec;
    if (problems.length) out.stderrTail = r.stderrTail.slice(-1200);
    // s3blitz's rows run once more under the CPU profiler: where the row's CPU goes.
    if (row.tool === 's3blitz' && !problems.length && opts.profile !== false) out.profile = await profileRun(spec, prep);
    rows.push(out);
    ctx.rows.push(out);
    console.log(`  ${out.status.padEnd(6)} ${row.tool} ${row.workload} ${row.settings}: ${fmt(c.objects)} objects, ${fmt(c.bytes / MiB, 1)} MiB in ${r.wallSec.toFixed(2)}s` +
      ` = ${fmt(out.rate)} obj/s, ${fmt(out.mbps, 1)} MiB/s; cpu ${r.cpuSec.toFixed(2)}s rss ${out.rssMb.toFixed(0)}MB` +
      (out.slowDowns ? `; SlowDown ${fmt(out.slowDowns)} of ${fmt(out.totalRequests)}` : '') + (out.sustained ? `; sustained ${fmt(out.sustained)}/s` : '') +
      (problems.length ? `\n         ${problems.join('; ')}\n         ${spec.line}\n         ${out.stderrTail.split('\n').slice(-4).join('\n         ')}` : ''));
    return out;
  };

  const profileRun = async (spec, prep) => {
    if (prep) await prep();
    const dir = fs.mkdtempSync(path.join(work, 'prof-'));
    try {
      const r = await runPeer(profiledSpec(spec, dir), { timeoutMs: ctx.timeoutSec * 1000 });
      if (r.exitCode !== 0) return { failed: `exit ${r.exitCode ?? 'signal ' + r.signal}` };
      return { wallSec: r.wallSec, cpuSec: r.cpuSec, threads: summarizeProfiles(dir) };
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  };

  // Every peer, default then tuned; spec(peer, tuned) builds its command or says why not.
  const peerRuns = async (workload, build, run) => {
    for (const peer of peerList) {
      for (const tuned of [false, true]) {
        const row = { workload, tool: peer, settings: tuned ? 'tuned' : 'default' };
        const miss = peers.missing.find((m) => m.name === peer);
        if (miss) { note(ctx, { group: 'transfers', ...row, op: workload, data: workload }, 'MISSING', miss.reason); continue; }
        const b = build(peer, tuned);
        await run(row, b);
      }
    }
  };

  try {
    // 1. Server-side copies of sources uploaded in one part each ("-1" ETags), 1-64 KiB.
    console.log(`# transfers: server-side copy of ${fmt(size.mpCopy)} multipart-ETag sources of 1-64 KiB`);
    const perDir = Math.max(1, Math.ceil(size.mpCopy / 40));
    await fake.seed('mpsrc', 'hierarchical', size.mpCopy, { hosts: 8, perDir, minSize: KiB, maxSize: 64 * KiB, parts: 1 });
    await fake.addBucket('mpdst');
    const keys = GENERATORS.hierarchical(size.mpCopy, { hosts: 8, perDir }).map(toExternalKey);
    const slices = { all: '', day: keys[0].slice(0, keys[0].indexOf('/host-') + 1), host: keys[0].slice(0, keys[0].indexOf('/part-') + 1) };
    const clear = (b) => () => fake.clear(b);
    for (const [settings, extra, keepEtags] of [['default', [], false], ['--keep-part-layout', ['--keep-part-layout'], true]]) {
      await measure({ workload: 'copy multipart-ETag sources', tool: 's3blitz', settings },
        blitzSpec('copy', ['cp', 's3://mpsrc', 's3://mpdst', '--json', '--no-journal', ...extra], E),
        { prep: clear('mpdst'), check: () => checkCopy(fake, 'mpsrc', 'mpdst', { keepEtags }), expect: size.mpCopy });
    }
    await peerRuns('copy multipart-ETag sources', (peer, tuned) => {
      const prefix = tuned ? '' : slices[SLOW_DEFAULTS[peer] || 'all'];
      const at = (b) => (prefix ? `${b}/${prefix.slice(0, -1)}` : b);
      return { prefix, spec: buildCommand(peers, peer, 'copy', { endpoint: E, tuned, src: peer === 'aws' && prefix ? `mpsrc/${prefix}` : at('mpsrc'), dst: peer === 'aws' && prefix ? `mpdst/${prefix}` : at('mpdst') }) };
    }, (row, { prefix, spec }) => measure(row, spec, { prep: clear('mpdst'), check: () => checkCopy(fake, 'mpsrc', 'mpdst', { keepEtags: false, prefix }), expect: null }));
    await fake.clear('mpsrc'); await fake.clear('mpdst');

    // 2. Large objects down and up.
    console.log(`# transfers: ${size.largeCount} x ${size.largeSize / MiB} MiB down and up`);
    await fake.seed('large', 'random', size.largeCount, { size: size.largeSize, seed: 5, md5: 1 });
    const largeWant = (await fake.objects('large')).map((o) => ({ key: o.key, size: o.size }));
    const dl = path.join(work, 'dl');
    const rmDl = async () => fs.rmSync(dl, { recursive: true, force: true });
    await measure({ workload: 'download large', tool: 's3blitz', settings: 'default' }, blitzSpec('download', ['cp', 's3://large', dl, '--json', '--no-journal'], E),
      { prep: rmDl, check: () => checkDownload(dl, largeWant), expect: size.largeCount });
    await peerRuns('download large', (peer, tuned) => buildCommand(peers, peer, 'download', { endpoint: E, tuned, src: 'large', dst: dl }),
      (row, spec) => measure(row, spec, { prep: rmDl, check: () => checkDownload(dl, largeWant), expect: size.largeCount }));
    rmDl();
    const largeDir = path.join(work, 'large');
    const largeFiles = makeFiles(largeDir, Array.from({ length: size.largeCount }, (_, i) => ({ name: `big-${i}.bin`, size: size.largeSize })));
    await fake.addBucket('uploads');
    await measure({ workload: 'upload large', tool: 's3blitz', settings: 'default' }, blitzSpec('upload', ['cp', largeDir, 's3://uploads', '--json', '--no-journal'], E),
      { prep: clear('uploads'), check: () => checkUpload(fake, 'uploads', largeDir, largeFiles), expect: size.largeCount });
    await peerRuns('upload large', (peer, tuned) => buildCommand(peers, peer, 'upload', { endpoint: E, tuned, src: largeDir, dst: 'uploads' }),
      (row, spec) => measure(row, spec, { prep: clear('uploads'), check: () => checkUpload(fake, 'uploads', largeDir, largeFiles), expect: size.largeCount }));
    fs.rmSync(largeDir, { recursive: true, force: true });
    await fake.clear('large'); await fake.clear('uploads');

    // 3. Many small files down and up (4-64 KiB).
    console.log(`# transfers: ${fmt(size.smallFiles)} files of 4-64 KiB down and up`);
    await fake.seed('small', 'hierarchical', size.smallFiles, { hosts: 8, perDir: Math.ceil(size.smallFiles / 40), minSize: 4 * KiB, maxSize: 64 * KiB, md5: 1 });
    const smallWant = (await fake.objects('small')).map((o) => ({ key: o.key, size: o.size }));
    await measure({ workload: 'download small', tool: 's3blitz', settings: 'default' }, blitzSpec('download', ['cp', 's3://small', dl, '--json', '--no-journal'], E),
      { prep: rmDl, check: () => checkDownload(dl, smallWant), expect: size.smallFiles });
    await peerRuns('download small', (peer, tuned) => buildCommand(peers, peer, 'download', { endpoint: E, tuned, src: 'small', dst: dl }),
      (row, spec) => measure(row, spec, { prep: rmDl, check: () => checkDownload(dl, smallWant), expect: size.smallFiles }));
    rmDl();
    const smallDir = path.join(work, 'small');
    const rnd = require('./fake-s3').keyHash;
    const smallFiles = makeFiles(smallDir, smallWant.map((o) => ({ name: o.key, size: 4 * KiB + (rnd(o.key) % (60 * KiB + 1)) })));
    await measure({ workload: 'upload small', tool: 's3blitz', settings: 'default' }, blitzSpec('upload', ['cp', smallDir, 's3://uploads', '--json', '--no-journal'], E),
      { prep: clear('uploads'), check: () => checkUpload(fake, 'uploads', smallDir, smallFiles), expect: size.smallFiles });
    await peerRuns('upload small', (peer, tuned) => buildCommand(peers, peer, 'upload', { endpoint: E, tuned, src: smallDir, dst: 'uploads' }),
      (row, spec) => measure(row, spec, { prep: clear('uploads'), check: () => checkUpload(fake, 'uploads', smallDir, smallFiles), expect: size.smallFiles }));
    fs.rmSync(smallDir, { recursive: true, force: true });
    await fake.clear('small'); await fake.clear('uploads');

    // 4. Copies under per-prefix write limits: spread evenly, and with one hot prefix.
    for (const [workload, count, hot] of [['copy, per-prefix limits', size.prefixObjects, 0], ['copy, per-prefix limits, one hot prefix (50%)', size.hotObjects, 0.5]]) {
      console.log(`# transfers: ${workload}: ${fmt(count)} objects over ${size.prefixes} prefixes, ${fmt(size.prefixRate)} writes/s each`);
      await fake.seed('pfx', 'prefixes', count, { prefixes: size.prefixes, hot });
      await fake.addBucket('pfxdst');
      await fake.setLimits({ prefixRate: size.prefixRate });
      const check = () => checkCopy(fake, 'pfx', 'pfxdst', { keepEtags: true });
      const ideal = Math.max(count / (size.prefixRate * size.prefixes), hot ? (count * hot) / size.prefixRate : 0);
      const r = await measure({ workload, tool: 's3blitz', settings: 'default', idealSec: ideal, limit: size.prefixRate * size.prefixes },
        blitzSpec('copy', ['cp', 's3://pfx', 's3://pfxdst', '--json', '--no-journal'], E), { prep: clear('pfxdst'), check, expect: count });
      r.idealSec = ideal;
      await peerRuns(workload, (peer, tuned) => buildCommand(peers, peer, 'copy', { endpoint: E, tuned, src: 'pfx', dst: 'pfxdst' }),
        (row, spec) => measure({ ...row, idealSec: ideal, limit: size.prefixRate * size.prefixes }, spec, { prep: clear('pfxdst'), check, capSec: size.peerCapSec, expect: count }));
      await fake.setLimits({ prefixRate: 0 });
      await fake.clear('pfx'); await fake.clear('pfxdst');
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

// The section's table for latest.md: s3blitz × peer per workload, as rates.
function transferTables(ctx) {
  const rows = ctx.rows.filter((r) => r.group === 'transfers' && r.status !== 'MISSING');
  if (!rows.length) return [];
  const ref = (w) => rows.find((r) => r.workload === w && r.tool === 's3blitz' && r.settings === 'default' && r.rate);
  const out = ['', '#### Transfers (fake S3, 30 ms per request; every row checked: counts, bytes, ETags or every byte)', '',
    '| workload | tool | settings | objects | MiB | wall s | objects/s | MiB/s | s3blitz × | client CPU | peak RSS MB | SlowDown share | sustained writes/s (after 3 s) | time ÷ ideal |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    const base = ref(r.workload);
    const large = /large/.test(r.workload);
    const ratio = base && r.rate ? (large ? base.mbps / r.mbps : base.rate / r.rate) : null;
    const cpu = r.status === 'FAILED' ? '-' : large ? `${fmt(r.cpuSec / (r.bytes / GiB), 2)} s/GiB` : `${fmt((r.cpuSec * 1000) / r.objects, 2)} ms/obj`;
    const status = r.status === 'ok' ? '' : ` (${r.status}${r.problems && r.problems.length ? `: ${r.problems.join('; ')}` : ''})`;
    out.push(`| ${r.workload} | ${r.tool} | ${r.settings}${status} | ${fmt(r.objects)} | ${fmt(r.bytes / MiB, 1)} | ${fmt(r.wallSec, 2)} | ${fmt(r.rate)} | ${fmt(r.mbps, 1)} | ` +
      `${ratio ? fmt(ratio, 2) : '-'} | ${cpu} | ${fmt(r.rssMb)} | ${r.totalRequests ? `${fmt((100 * r.slowDowns) / r.totalRequests, 1)}%` : '-'} | ` +
      `${r.limit ? `${fmt(r.sustained)} (${fmt((100 * r.sustained) / r.limit)}% of ${fmt(r.limit)})` : '-'} | ${r.idealSec ? fmt(r.wallSec / r.idealSec, 2) : '-'} |`);
  }
  out.push(...profileTable(rows));
  out.push('', 's3blitz ×: s3blitz\'s default rate (objects/s; MiB/s for large objects) ÷ the row\'s. Peers at their defaults that copy a handful of objects at once copy a folder of the multipart-source bucket (aws: a day, rclone: one host), compared by rate; peers under per-prefix limits run at most ' +
    `${SIZES[ctx.modeName].peerCapSec} s (capped: measured by what they copied). SlowDown share: SlowDown answers ÷ all requests. Time ÷ ideal: wall time over the time the limits allow (objects ÷ aggregate limit, or the hot prefix's objects ÷ its limit).`);
  return out;
}

// Where s3blitz's CPU goes in each of its rows: per thread, its sampled CPU and the functions
// with the most self time, per GiB for large objects, else per object.
function profileTable(rows) {
  const profiled = rows.filter((r) => r.tool === 's3blitz' && r.profile && r.profile.threads);
  if (!profiled.length) return [];
  const out = ['', '#### Where s3blitz\'s CPU goes (each row run once more under `node --cpu-prof`)', '',
    '| workload | settings | thread | CPU | the functions with the most self time |', '|---|---|---|---:|---|'];
  for (const r of profiled) {
    const large = /large/.test(r.workload);
    const per = (ms) => (large ? `${fmt(ms / (r.bytes / GiB))} ms/GiB` : `${fmt((ms * 1000) / r.objects)} µs/obj`);
    for (const t of r.profile.threads) {
      out.push(`| ${r.workload} | ${r.settings} | ${t.thread} | ${per(t.ms)} | ${t.top.map((f) => `${f.name.replace(/\|/g, '\\|')} ${per(f.ms)}`).join('; ')} |`);
    }
  }
  out.push('', 'Self time: samples in the function itself; native work (hashing, socket and file calls) counts in the JavaScript function that called it. ' +
    '(garbage collector) is V8\'s collector; (program) is V8 and Node work outside any JavaScript function. Idle time is left out. The profiled run is not the measured one: sampling slows it.');
  return out;
}

module.exports = { transfersSection, transferTables, SIZES };
