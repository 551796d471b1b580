'use strict';
// Quick probe of one transfer workload, s3blitz alone, in this process (so --cpu-prof sees it):
//   node bench/probe-transfer.js WORKLOAD [count] [size] [latencyMs]
// WORKLOAD: download-small | upload-small | download-large | upload-large | mpcopy | mpcopy-keep | prefix | prefix-hot
// Prints objects/s, MiB/s, client CPU per object and per GiB, and peak RSS. bench/run.js
// --only transfers measures the same workloads side by side with the peers.
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnFakeS3 } = require('./fake-s3');
const s3blitz = require('../src');

const KiB = 1024, MiB = 1024 * KiB;

async function main() {
  const [workload, countArg, sizeArg, latArg] = process.argv.slice(2);
  const large = /large/.test(workload || '');
  const n = Number(countArg || (large ? 4 : /prefix/.test(workload) ? 100000 : 5000));
  const size = Number(sizeArg || (large ? 256 * MiB : 0));
  const fake = await spawnFakeS3({ listLatencyMs: 100, otherLatencyMs: Number(latArg || 30) });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-probe-'));
  // CHECKSUM=none|CRC32|...: the checksum uploads send (default CRC64NVME); STORED=1: seeded objects store CRC64NVME.
  const conn = { endpointUrl: fake.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, journal: false, ...(process.env.CHECKSUM ? { checksumAlgorithm: process.env.CHECKSUM } : {}) };
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 50);
  try {
    await fake.addBucket('dst');
    let run;
    if (workload === 'download-small' || workload === 'download-large') {
      await fake.seed('src', large ? 'random' : 'hierarchical', n, { ...(large ? { size } : { perDir: Math.ceil(n / 40), minSize: 4 * KiB, maxSize: 64 * KiB }), ...(process.env.STORED ? { checksums: 1 } : {}) });
      run = () => s3blitz.copy({ source: 's3://src', target: path.join(work, 'dl'), ...conn });
    } else if (workload === 'upload-small' || workload === 'upload-large') {
      const dir = path.join(work, 'up');
      fs.mkdirSync(dir);
      for (let i = 0; i < n; i++) {
        const sub = path.join(dir, `d${i % 40}`);
        fs.mkdirSync(sub, { recursive: true });
        fs.writeFileSync(path.join(sub, `f${i}.bin`), crypto.randomBytes(large ? size : 4 * KiB + ((i * 7919) % (60 * KiB))));
      }
      run = () => s3blitz.copy({ source: dir, target: 's3://dst', ...conn });
    } else if (workload === 'mpcopy' || workload === 'mpcopy-keep') {
      await fake.seed('src', 'hierarchical', n, { perDir: Math.ceil(n / 40), minSize: KiB, maxSize: 64 * KiB, parts: 1 });
      run = () => s3blitz.copy({ source: 's3://src', target: 's3://dst', keepPartLayout: workload === 'mpcopy-keep', ...conn });
    } else if (workload === 'prefix' || workload === 'prefix-hot') {
      await fake.seed('src', 'prefixes', n, { prefixes: 10, hot: workload === 'prefix-hot' ? 0.5 : 0 });
      await fake.setLimits({ prefixRate: Number(process.env.PREFIX_RATE || 1000) });
      run = () => s3blitz.copy({ source: 's3://src', target: 's3://dst', ...conn });
    } else {
      throw new Error('usage: node bench/probe-transfer.js download-small|upload-small|download-large|upload-large|mpcopy|mpcopy-keep|prefix|prefix-hot [count] [size] [latencyMs]');
    }
    await fake.resetStats();
    // PROFILE=file.cpuprofile: a CPU profile of the run alone (not of the set-up).
    const session = process.env.PROFILE ? new (require('inspector').Session)() : null;
    const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, v) => (e ? rej(e) : res(v))));
    if (session) { session.connect(); await post('Profiler.enable'); await post('Profiler.start'); }
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    const r = await run();
    const ms = Date.now() - t0;
    if (session) fs.writeFileSync(process.env.PROFILE, JSON.stringify((await post('Profiler.stop')).profile));
    const cpu = process.cpuUsage(cpu0);
    const st = await fake.stats();
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const bytes = r.copied.bytes;
    console.log(JSON.stringify({
      workload, copied: r.copied.objects, failed: r.failed.objects, failures: r.failures.slice(0, 3), ms,
      perSec: Math.round((r.copied.objects / ms) * 1000), mibPerSec: +((bytes / MiB / ms) * 1000).toFixed(1),
      cpuMsPerObject: +(cpuMs / r.copied.objects).toFixed(3), cpuSecPerGiB: +((cpuMs / 1000) / (bytes / 1024 ** 3)).toFixed(2),
      peakRssMB: Math.round(peak / MiB), fakeCpuSec: +st.cpu.total.toFixed(2), requests: st.requests, maxInflight: st.maxInflight, connections: st.connections, writesPerSecond: st.writesPerSecond.join(' '),
    }));
  } finally {
    clearInterval(sampler);
    fs.rmSync(work, { recursive: true, force: true });
    await fake.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
