'use strict';
// startServer(name): an S3 server of the given kind on a free 127.0.0.1 port with a
// throwaway data directory, installed into the cache on first use. Resolves to
// {name, version, endpoint, accessKeyId, secretAccessKey, region, tmpDir, output(), stop()}.
const SERVERS = {
  minio: async () => {
    const { startMinio, MINIO_MODULE } = require('../minio');
    const m = await startMinio();
    return { name: 'minio', version: MINIO_MODULE.split('@')[1], endpoint: m.endpoint, accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey, region: m.region, tmpDir: m.tmpDir, output: m.output, stop: m.stop };
  },
  versitygw: () => require('./versitygw').start(),
  seaweedfs: () => require('./seaweedfs').start(),
  moto: () => require('./moto').start(),
  s3proxy: () => require('./s3proxy').start(),
};

function startServer(name) {
  if (!SERVERS[name]) throw new Error(`no such test server: ${name} (one of ${Object.keys(SERVERS).join(', ')})`);
  return SERVERS[name]();
}

module.exports = { startServer, SERVERS: Object.keys(SERVERS) };
