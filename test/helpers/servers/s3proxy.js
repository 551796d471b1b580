'use strict';
// s3proxy, the jar with dependencies from Maven Central, on the machine's Java, with the
// jclouds filesystem backend and AWS signatures (v2 or v4) checked.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { cacheRoot, installOnce, mavenDownload, freePorts, serverEnv, answersS3, launch, withPortRetry } = require('./common');

const VERSION = '4.1.0';
const URL_JAR = `https://repo1.maven.org/maven2/org/gaul/s3proxy/${VERSION}/s3proxy-${VERSION}-jar-with-dependencies.jar`;

async function jar() {
  const dir = path.join(cacheRoot(), 's3proxy');
  const file = path.join(dir, `s3proxy-${VERSION}-jar-with-dependencies.jar`);
  await installOnce({
    dir, name: `s3proxy ${VERSION}`, ready: () => fs.existsSync(file), timeoutMs: 10 * 60e3,
    install: () => mavenDownload({ url: URL_JAR, dest: file }),
  });
  return file;
}

async function start() {
  const file = await jar();
  return withPortRetry(async () => {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-s3proxy-'));
    const data = path.join(tmpDir, 'data');
    fs.mkdirSync(data);
    const [port] = await freePorts(1);
    const conn = { endpoint: `http://127.0.0.1:${port}`, accessKeyId: 's3padmin', secretAccessKey: crypto.randomBytes(12).toString('hex'), region: 'us-east-1' };
    const props = path.join(tmpDir, 's3proxy.properties');
    fs.writeFileSync(props, [
      `s3proxy.endpoint=${conn.endpoint}`, 's3proxy.authorization=aws-v2-or-v4',
      `s3proxy.identity=${conn.accessKeyId}`, `s3proxy.credential=${conn.secretAccessKey}`,
      'jclouds.provider=filesystem', `jclouds.filesystem.basedir=${data}`,
      `jclouds.identity=${conn.accessKeyId}`, `jclouds.credential=${conn.secretAccessKey}`, '',
    ].join('\n'));
    const srv = await launch({
      name: 's3proxy', cmd: 'java', args: ['-Xmx512m', '-jar', file, '--properties', props], tmpDir, cwd: tmpDir,
      // A UTF-8 locale: without one the JVM names files in ASCII and refuses every other key.
      env: serverEnv(tmpDir, { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' }), ready: () => answersS3(conn),
    });
    return { name: 's3proxy', version: VERSION, ...conn, tmpDir, output: srv.output, stop: srv.stop };
  });
}

module.exports = { start, VERSION };
