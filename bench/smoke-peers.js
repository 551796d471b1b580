#!/usr/bin/env node
'use strict';
// Smoke test for the benchmark's moving parts: installs the peers, runs each
// one's listing and bucket-to-bucket copy (default and tuned) against the fake
// S3 running in its own process, checks every run produced exactly the right
// number of keys/objects, and checks the fake itself stays cheap.
//
//   node bench/smoke-peers.js [--keys 20000] [--latency 5] [--unicode 2000]
//        [--peers aws,s5cmd,rclone] [--variants default,tuned]
//        [--big 1000000] [--skip-fake-cost] [--json FILE]
// Exit code 1 if any installed peer returns a wrong count or fails, a peer is
// missing, or a 1000-key list page costs the fake >= 1 ms of CPU.

const fs = require('node:fs');
const http = require('node:http');
const { spawnFakeS3 } = require('./fake-s3');
const { ensurePeers, buildCommand, runPeer } = require('./peers');

function parseArgs(argv) {
  const o = { keys: 20000, latency: 5, unicode: 2000, peers: 'aws,s5cmd,rclone', variants: 'default,tuned', big: 1000000, fakeCost: true, json: null, timeout: 600 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--keys') o.keys = +v();
    else if (a === '--latency') o.latency = +v();
    else if (a === '--unicode') o.unicode = +v();
    else if (a === '--peers') o.peers = v();
    else if (a === '--variants') o.variants = v();
    else if (a === '--big') o.big = +v();
    else if (a === '--skip-fake-cost') o.fakeCost = false;
    else if (a === '--json') o.json = v();
    else if (a === '--timeout') o.timeout = +v();
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const fmt = (n, d = 2) => Number(n).toFixed(d);
const rate = (n, s) => (s > 0 ? `${Math.round(n / s)}/s` : '-');

// Lists a bucket with raw keep-alive requests (ListObjectsV2, 1000 per page,
// encoding-type=url like aws-cli) and returns the fake's CPU per page.
async function listCost(fake, bucket) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (p) => new Promise((resolve, reject) => http.get(fake.endpoint + p, { agent }, (r) => {
    const c = [];
    r.on('data', (d) => c.push(d));
    r.on('end', () => resolve(Buffer.concat(c)));
  }).on('error', reject));
  const pass = async () => {
    await fake.resetStats();
    let tok = null, pages = 0, keys = 0;
    const t = Date.now();
    for (;;) {
      const body = await get(`/${bucket}?list-type=2&encoding-type=url${tok ? '&continuation-token=' + encodeURIComponent(tok) : ''}`);
      pages++;
      const head = body.latin1Slice(0, 1200);
      keys += +/<KeyCount>(\d+)</.exec(head)[1];
      const m = /<NextContinuationToken>([^<]*)</.exec(head);
      if (!m) break;
      tok = m[1];
    }
    const st = await fake.stats();
    return { pages, keys, wallSec: (Date.now() - t) / 1000, cpuMsPerPage: st.cpu.total * 1000 / pages, userMsPerPage: st.cpu.user * 1000 / pages, sysMsPerPage: st.cpu.system * 1000 / pages };
  };
  const warm = await pass(); // JIT warm-up and first-touch effects
  const hot = await pass();
  agent.destroy();
  return { warm, hot };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const wanted = o.peers.split(',').filter(Boolean);
  const variants = o.variants.split(',').filter(Boolean);
  let failed = false;

  console.log('# peers');
  const peers = await ensurePeers({ peers: wanted, log: (m) => console.log(`  ${m}`) });
  for (const p of wanted) if (peers[p]) console.log(`  ${p}: ${peers.versions[p]}  (${peers[p]})`);
  for (const m of peers.missing) { console.log(`  MISSING ${m.name}: ${m.reason}`); failed = true; }

  const fake = await spawnFakeS3({ listLatencyMs: o.latency, otherLatencyMs: o.latency });
  const results = [];
  try {
    console.log(`# fake S3 ${fake.endpoint} (pid ${fake.pid}), latency ${o.latency} ms`);
    const sets = [{ src: 'src', gen: 'hierarchical', n: o.keys }];
    if (o.unicode > 0) sets.push({ src: 'uni', gen: 'unicode', n: o.unicode });
    for (const s of sets) {
      const r = await fake.seed(s.src, s.gen, s.n);
      console.log(`  seeded ${s.src}: ${r.count} ${s.gen} keys in ${r.ms} ms`);
    }
    await fake.addBucket('dst');
    const srcDigest = {};
    for (const s of sets) srcDigest[s.src] = (await fake.digest(s.src)).md5;

    for (const s of sets) {
      console.log(`# ${s.gen}: ${s.n} keys`);
      for (const peer of wanted) {
        if (!peers[peer]) continue;
        for (const variant of variants) {
          for (const op of ['ls', 'copy']) {
            if (op === 'copy') await fake.clear('dst');
            await fake.resetStats();
            const spec = buildCommand(peers, peer, op, { endpoint: fake.endpoint, bucket: s.src, src: s.src, dst: 'dst', tuned: variant === 'tuned' });
            const r = await runPeer(spec, { timeoutMs: o.timeout * 1000, countObjects: () => fake.count('dst') });
            const st = await fake.stats();
            // A copy must reproduce the source exactly: same keys, sizes, ETags.
            const same = op !== 'copy' || (await fake.digest('dst')).md5 === srcDigest[s.src];
            const ok = r.ok && r.count === s.n && same;
            if (!ok) failed = true;
            results.push({ set: s.gen, expected: s.n, ...r, fake: { cpuSec: st.cpu.total, requests: st.requests, connections: st.connections, maxInflight: st.maxInflight, errors: st.errors } });
            console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${peer.padEnd(6)} ${op.padEnd(4)} ${variant.padEnd(7)} count=${r.count}/${s.n} ` +
              `wall=${fmt(r.wallSec)}s rate=${rate(r.count, r.wallSec)} cpu=${fmt(r.cpuSec)}s (${fmt(r.cpuSec * 1e6 / s.n, 0)}us/key) ` +
              `rss=${Math.round(r.maxRssKb / 1024)}MB | fake cpu=${fmt(st.cpu.total)}s reqs=${st.totalRequests} conns=${st.connections} ` +
              `maxInflight=${st.maxInflight} ${JSON.stringify(st.requests)}`);
            if (!same) console.log('       destination keys/sizes/ETags differ from the source');
            if (!ok) console.log(`       exit=${r.exitCode} signal=${r.signal} timedOut=${r.timedOut}\n       ${spec.line}\n       ${r.stderrTail.split('\n').slice(-5).join('\n       ')}`);
          }
        }
      }
    }

    if (o.fakeCost && o.big > 0) {
      console.log(`# fake cost: raw ListObjectsV2 over ${o.big} keys, 1000 per page, latency 0`);
      await fake.setLatency({ listMs: 0, otherMs: 0 });
      const r = await fake.seed('big', 'hierarchical', o.big);
      console.log(`  seeded big: ${r.count} keys in ${r.ms} ms`);
      const c = await listCost(fake, 'big');
      for (const [name, p] of Object.entries(c)) {
        console.log(`  ${name} pass: ${p.pages} pages, ${p.keys} keys, ${fmt(p.wallSec)}s wall, fake CPU ${fmt(p.cpuMsPerPage, 3)} ms/page (user ${fmt(p.userMsPerPage, 3)}, sys ${fmt(p.sysMsPerPage, 3)})`);
      }
      if (c.hot.keys !== o.big || c.hot.cpuMsPerPage >= 1) { failed = true; console.log('  FAIL: expected all keys and < 1 ms CPU per page'); }
      results.push({ fakeListCost: c });
    }
  } finally {
    await fake.close();
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ versions: peers.versions, missing: peers.missing, results }, null, 2));
  console.log(failed ? 'SMOKE FAILED' : 'SMOKE OK');
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => { console.error(e); process.exitCode = 2; });
