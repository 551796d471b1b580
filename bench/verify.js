'use strict';
// Verifying copies side by side on the fake S3 (bench/run.js --only verify, or part of a full
// run), issue 29's rows:
// - Two buckets of the same bytes, one written in 8 parts (so no ETag can settle a pair),
//   every object storing a full-object CRC64NVME. s3blitz `compare --checksum` judges each
//   pair by the two stored checksums: a HEAD each side, no GET. Peers as they verify: rclone
//   `check` (size and MD5: a multipart object has no MD5, so it HEADs for one and reports
//   "hashes could not be checked"), rclone `check --download` (reads both sides) and
//   `aws s3 sync --dryrun` (size and time only).
// - A folder against its bucket: s3blitz `compare DIR s3://… --checksum` hashes each file in
//   its object's algorithm (one HEAD each, no GET), against reading the same files (`cat`)
//   and rclone `check` (MD5 of each file against the listed ETags).
// - Downloads with checksums checked (the fake stores them) against the same downloads from
//   a bucket that stores none: the cost of checking.
// Every row checks its verdict: all pairs identical, the requests it was supposed to send.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runPeer, buildCommand } = require('./peers');

const KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
const SIZES = {
  full: { pairs: 100000, largeCount: 4, largeSize: 256 * MiB, smallFiles: 5000, peerCapSec: 120 },
  quick: { pairs: 10000, largeCount: 4, largeSize: 32 * MiB, smallFiles: 1000, peerCapSec: 30 },
};
const fmt = (n, d = 0) => (n == null || Number.isNaN(n) ? '-' : Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
const count = (re, text) => { const m = re.exec(text || ''); return m ? Number(m[1]) : null; };

// rclone check's summary lines (stderr).
function rcloneSummary(text) {
  return { matching: count(/(\d+) matching files/, text), differences: count(/(\d+) differences found/, text), unchecked: count(/(\d+) hashes could not be checked/, text) || 0 };
}

async function verifySection(ctx) {
  const { fake, opts, peers, blitzSpec, note } = ctx;
  const size = SIZES[ctx.modeName];
  const E = fake.endpoint;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-bench-verify-'));
  await fake.setLatency({ listMs: opts.listLatency, otherMs: opts.otherLatency, jitterMs: 0, stallEvery: 0, stallMs: 0 });

  // One measured run. judge(r, st) -> {problems, pairs, proved}: what the tool said, checked.
  const measure = async (row, spec, { judge, capSec }) => {
    await fake.resetStats();
    const r = await runPeer(spec, { timeoutMs: (capSec || ctx.timeoutSec) * 1000, collectLines: true });
    const st = await fake.stats();
    const capped = Boolean(capSec) && r.timedOut;
    const j = judge(r, st);
    const problems = [...j.problems];
    if (r.timedOut && !capped) problems.push(`timed out after ${ctx.timeoutSec}s`);
    else if (r.exitCode !== 0 && !capped) problems.push(`exit ${r.exitCode ?? 'signal ' + r.signal}`);
    if (capped) problems.length = 0; // measured by what it did in its time
    const out = {
      group: 'verify', ...row, line: spec.line, status: problems.length ? 'FAILED' : capped ? 'capped' : 'ok', problems,
      pairs: j.pairs, proved: j.proved, bytes: j.bytes || 0, wallSec: r.wallSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024,
      heads: st.requests.HeadObject || 0, gets: st.requests.GetObject || 0, lists: (st.requests.ListObjectsV2 || 0) + (st.requests.ListObjects || 0),
    };
    out.rate = out.status === 'FAILED' ? null : j.pairs / r.wallSec;
    if (problems.length) out.stderrTail = r.stderrTail.slice(-1200);
    ctx.rows.push(out);
    console.log(`  ${out.status.padEnd(6)} ${row.tool} ${row.op} ${row.settings} [${row.data}]: ${fmt(j.pairs)} pairs (${fmt(j.proved)} proved) in ${r.wallSec.toFixed(2)}s` +
      ` = ${fmt(out.rate)}/s; HEAD ${fmt(out.heads)} GET ${fmt(out.gets)} LIST ${fmt(out.lists)}; cpu ${r.cpuSec.toFixed(2)}s rss ${out.rssMb.toFixed(0)}MB` +
      (problems.length ? `\n         ${problems.join('; ')}\n         ${spec.line}\n         ${out.stderrTail.split('\n').slice(-4).join('\n         ')}` : ''));
    return out;
  };
  const missing = (row, peer) => {
    const miss = peers.missing.find((m) => m.name === peer);
    if (miss) note(ctx, row, 'MISSING', miss.reason);
    return Boolean(miss);
  };
  const rclone = (args) => {
    const spec = buildCommand(peers, 'rclone', 'ls', { endpoint: E, bucket: 'x' });
    // rclone HEADs an object for the MD5 it keeps in metadata where its ETag is not one:
    // the benchmark's switches that save HEADs elsewhere must not hide that here.
    for (const k of Object.keys(spec.env)) if (/_NO_HEAD/.test(k)) delete spec.env[k];
    spec.args = args;
    spec.line = [spec.cmd, ...args].join(' ');
    return spec;
  };
  // s3blitz compare --json: every pair identical, judged as expected.
  const blitzJudge = (n, how, { heads, gets }) => (r, st) => {
    const problems = [];
    let j = {};
    try { j = JSON.parse(r.output.join('\n')); } catch (e) { problems.push(`unparsable --json output (${e.message})`); }
    const judged = (j.judgedBy && j.judgedBy[how]) || 0;
    const same = (j.classes && j.classes.same && j.classes.same.objects) || 0;
    if (j.identical !== true || same !== n) problems.push(`${same} of ${n} pairs the same (identical: ${j.identical})`);
    if (judged !== n) problems.push(`judged by ${how}: ${judged} of ${n} (${JSON.stringify(j.judgedBy)})`);
    if ((st.requests.HeadObject || 0) !== heads) problems.push(`${st.requests.HeadObject || 0} HEADs, expected ${heads}`);
    if ((st.requests.GetObject || 0) !== gets) problems.push(`${st.requests.GetObject || 0} GETs, expected ${gets}`);
    return { problems, pairs: same, proved: judged };
  };
  // rclone check --combined -: a "=" line per identical pair; its summary says how many it
  // could not check by hash (matched by size alone).
  const rcloneJudge = (n, { download }) => (r) => {
    const same = r.output.filter((l) => l.startsWith('= ')).length;
    const s = rcloneSummary(r.stderrTail);
    const problems = same === n ? [] : [`${same} identical of ${n}`];
    if (download && s.unchecked) problems.push(`--download left ${s.unchecked} unchecked`);
    // Cut off at its time limit it prints no summary: what it proved is not known.
    return { problems, pairs: same, proved: s.matching == null ? null : Math.max(0, same - s.unchecked) };
  };

  try {
    // Two buckets compared.
    const n = size.pairs;
    const layout = { hosts: 8, perDir: 1000, size: 1024, checksums: 1 };
    await fake.seed('vfa', 'hierarchical', n, layout);
    await fake.seed('vfb', 'hierarchical', n, { ...layout, parts: 8 });
    console.log(`# verify: ${fmt(n)} pairs, one side multipart, CRC64NVME stored; ${opts.otherLatency} ms per HEAD`);
    const data = `2 buckets (${fmt(n)} pairs)`;
    await measure({ tool: 's3blitz', op: 'compare --checksum', settings: 'default', data, kind: 'buckets' },
      blitzSpec('compare', ['compare', 's3://vfa', 's3://vfb', '--checksum', '--json'], E),
      { judge: blitzJudge(n, 'checksum CRC64NVME', { heads: 2 * n, gets: 0 }) });
    if (opts.peers.includes('rclone')) {
      for (const [settings, extra, download] of [['default (--checkers 8)', [], false], ['--checkers 256', ['--checkers', '256'], false], ['--download --checkers 256', ['--download', '--checkers', '256'], true]]) {
        const row = { tool: 'rclone', op: download ? 'check --download' : 'check', settings, data, kind: 'buckets' };
        if (missing(row, 'rclone')) continue;
        await measure(row, rclone(['check', '--combined', '-', ...extra, 'fakes3:vfa', 'fakes3:vfb']), { judge: rcloneJudge(n, { download }), capSec: size.peerCapSec });
      }
    }
    if (opts.peers.includes('aws')) {
      for (const tuned of [false, true]) {
        const row = { tool: 'aws', op: 's3 sync --dryrun', settings: tuned ? 'max_concurrent_requests=100' : 'default', data, kind: 'buckets' };
        if (missing(row, 'aws')) continue;
        const spec = buildCommand(peers, 'aws', 'copy', { endpoint: E, src: 'vfa', dst: 'vfb', tuned });
        spec.args = ['s3', 'sync', '--dryrun', 's3://vfa', 's3://vfb', '--endpoint-url', E];
        spec.line = [spec.cmd, ...spec.args].join(' ');
        // Nothing to copy: every pair has the same size and time (all it compares).
        await measure(row, spec, { judge: (r) => ({ problems: r.output.filter(Boolean).length ? [`would copy ${r.output.filter(Boolean).length}`] : [], pairs: n, proved: 0 }), capSec: size.peerCapSec });
      }
    }
    await fake.clear('vfa'); await fake.clear('vfb');

    // Folders against their buckets: downloaded (with checksums checked, and from a bucket
    // that stores none), then verified.
    const sets = [
      { name: 'large', bucket: 'vfl', seed: ['random', size.largeCount, { size: size.largeSize }], label: `${size.largeCount} × ${size.largeSize / MiB} MiB` },
      { name: 'small', bucket: 'vfs', seed: ['hierarchical', size.smallFiles, { perDir: Math.ceil(size.smallFiles / 40), minSize: 4 * KiB, maxSize: 64 * KiB }], label: `${fmt(size.smallFiles)} files of 4–64 KiB` },
    ];
    for (const set of sets) {
      const [gen, count, o] = set.seed;
      await fake.seed(set.bucket, gen, count, { ...o, md5: 1, checksums: 1 });
      await fake.seed(`${set.bucket}0`, gen, count, { ...o, md5: 1 });
      const bytes = await fake.bytes(set.bucket);
      const dl = (b) => path.join(work, b);
      const downloaded = (b, proved) => () => {
        const files = listFiles(dl(b));
        const got = files.reduce((s, f) => s + f.size, 0);
        const problems = files.length === count && got === bytes ? [] : [`${files.length} files, ${got} bytes; expected ${count}, ${bytes}`];
        return { problems, pairs: files.length, proved: proved ? files.length : 0, bytes: got };
      };
      for (const [b, label] of [[`${set.bucket}0`, 'none stored'], [set.bucket, 'CRC64NVME stored, checked']]) {
        fs.rmSync(dl(b), { recursive: true, force: true });
        await measure({ tool: 's3blitz', op: 'cp (download)', settings: label, data: set.label, kind: set.name },
          blitzSpec('cp', ['cp', `s3://${b}`, dl(b)], E), { judge: downloaded(b, b === set.bucket) });
      }
      const dir = dl(set.bucket);
      const local = `${set.label}, folder ↔ bucket`;
      // A small file is settled by its MD5 against the object's single-part ETag, with no
      // request; a large one by its CRC64NVME against the stored one, a HEAD each.
      const small = set.name === 'small';
      const read = (judge) => (r, st) => ({ ...judge(r, st), bytes }); // every local row reads the files
      await measure({ tool: 's3blitz', op: 'compare DIR s3://… --checksum', settings: 'default', data: local, kind: set.name },
        blitzSpec('compare', ['compare', dir, `s3://${set.bucket}`, '--checksum', '--json'], E),
        { judge: read(blitzJudge(count, small ? 'read' : 'checksum CRC64NVME', { heads: small ? 0 : count, gets: 0 })) });
      await measure({ tool: 'cat', op: 'read every file', settings: 'find -exec cat', data: local, kind: set.name },
        { peer: 'cat', op: 'read', cmd: 'sh', args: ['-c', `find "${dir}" -type f -exec cat {} + > /dev/null`], env: process.env, line: `find ${dir} -type f -exec cat {} + > /dev/null` },
        { judge: () => ({ problems: [], pairs: count, proved: 0, bytes }) });
      if (opts.peers.includes('rclone')) {
        for (const [settings, extra] of [['default (--checkers 8)', []], ['--checkers 64', ['--checkers', '64']]]) {
          const row = { tool: 'rclone', op: 'check DIR', settings, data: local, kind: set.name };
          if (missing(row, 'rclone')) continue;
          await measure(row, rclone(['check', '--combined', '-', ...extra, dir, `fakes3:${set.bucket}`]), { judge: read(rcloneJudge(count, {})), capSec: size.peerCapSec });
        }
      }
      for (const b of [set.bucket, `${set.bucket}0`]) { fs.rmSync(dl(b), { recursive: true, force: true }); await fake.clear(b); }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ path: p, size: fs.statSync(p).size });
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function verifyTables(ctx) {
  const rows = ctx.rows.filter((r) => r.group === 'verify');
  if (!rows.length) return [];
  const out = ['', `#### Verifying copies (fake S3, ${ctx.opts.otherLatency} ms per request; every row checks its verdict and the requests it sent)`, '',
    '| data | tool | op | settings | pairs | proved by content | wall s | pairs/s | s3blitz × | HEAD | GET | client CPU | MiB/s | peak RSS MB |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    if (r.status === 'MISSING') { out.push(`| ${r.data} | ${r.tool} | ${r.op} | ${r.settings} | MISSING: ${r.reason} |${' |'.repeat(9)}`); continue; }
    // Downloads against the same download with nothing to check; the rest against s3blitz's compare.
    const download = /^cp/.test(r.op);
    const base = rows.find((b) => b.kind === r.kind && b.tool === 's3blitz' && b.rate && (download ? b.settings === 'none stored' : /^compare/.test(b.op)));
    const ratio = base && r.rate && base !== r ? (download ? r.rate / base.rate : base.rate / r.rate) : null;
    const large = r.kind === 'large';
    const cpu = r.status === 'FAILED' ? '-' : large && r.bytes ? `${fmt(r.cpuSec / (r.bytes / GiB), 2)} s/GiB` : `${fmt((r.cpuSec * 1000) / Math.max(1, r.heads || r.pairs), 3)} ms/${r.heads ? 'HEAD' : 'pair'}`;
    const status = r.status === 'ok' ? '' : ` (${r.status}${r.problems && r.problems.length ? `: ${r.problems.join('; ')}` : ''})`;
    out.push(`| ${r.data} | ${r.tool} | ${r.op}${status} | ${r.settings} | ${fmt(r.pairs)} | ${fmt(r.proved)} | ${fmt(r.wallSec, 2)} | ${fmt(r.rate)} | ${ratio ? fmt(ratio, 2) : '-'} | ` +
      `${fmt(r.heads)} | ${fmt(r.gets)} | ${cpu} | ${r.bytes ? fmt(r.bytes / MiB / r.wallSec, 0) : '-'} | ${fmt(r.rssMb, 0)} |`);
  }
  out.push('', 'proved by content: pairs whose bytes the tool showed equal (stored checksums, hashes of the file, or reading both); the rest it matched by size (and time) alone. ' +
    'rclone check compares size and MD5: an object written in parts has no MD5 ETag, so it HEADs for the MD5 rclone keeps in metadata, finds none, and says "hashes could not be checked". ' +
    'aws s3 sync --dryrun compares size and time only. s3blitz ×: the s3blitz compare row\'s pairs/s ÷ this row\'s; for a download with checksums checked, its rate ÷ the rate with none stored. ' +
    'Downloads: the same objects from a bucket that stores no checksum and from one that stores CRC64NVME (a whole GET hashed as written, a ranged one read back and hashed on the main thread). cat: the files read once, from the page cache as every row here.');
  return out;
}

module.exports = { verifySection, verifyTables, SIZES };
