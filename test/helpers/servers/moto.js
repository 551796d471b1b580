'use strict';
// moto's standalone server, from PyPI, with request signatures checked: moto checks them
// only for access keys of its own IAM, and only after INITIAL_NO_AUTH_ACTION_COUNT
// requests; the first three (create a user, give it a policy, make its key) are made here.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { cacheRoot, installOnce, pipInstall, freePorts, serverEnv, launch, withPortRetry } = require('./common');

const VERSION = '5.2.5';

const BOOTSTRAP = `
import boto3, json, sys
iam = boto3.client('iam', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='bootstrap', aws_secret_access_key='bootstrap')
iam.create_user(UserName='s3blitz')
iam.put_user_policy(UserName='s3blitz', PolicyName='all', PolicyDocument=json.dumps({'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Action': '*', 'Resource': '*'}]}))
key = iam.create_access_key(UserName='s3blitz')['AccessKey']
print(json.dumps({'accessKeyId': key['AccessKeyId'], 'secretAccessKey': key['SecretAccessKey']}))
`;

async function venv() {
  const dir = path.join(cacheRoot(), 'moto');
  const v = path.join(dir, 'venv');
  await installOnce({
    dir, name: `moto ${VERSION}`, ready: () => fs.existsSync(path.join(v, '.complete')), timeoutMs: 10 * 60e3,
    install: () => pipInstall({ venv: v, packages: [`moto[server]==${VERSION}`], logFile: path.join(dir, 'install.log'), timeoutMs: 10 * 60e3 }),
  });
  return v;
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = require('net').connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

async function start() {
  const v = await venv();
  return withPortRetry(async () => {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-moto-'));
    const [port] = await freePorts(1);
    const endpoint = `http://127.0.0.1:${port}`;
    const env = serverEnv(tmpDir, { INITIAL_NO_AUTH_ACTION_COUNT: '3' });
    const srv = await launch({
      name: 'moto', cmd: path.join(v, 'bin', 'moto_server'), args: ['-H', '127.0.0.1', '-p', String(port)], tmpDir, cwd: tmpDir, env,
      ready: () => portOpen(port),
    });
    try {
      const out = await new Promise((resolve, reject) => execFile(path.join(v, 'bin', 'python'), ['-c', BOOTSTRAP, endpoint], { env: serverEnv(tmpDir), timeout: 60e3 },
        (err, stdout, stderr) => (err ? reject(new Error(`moto's IAM bootstrap failed: ${stderr || err.message}`)) : resolve(stdout))));
      const keys = JSON.parse(out);
      return { name: 'moto', version: VERSION, endpoint, ...keys, region: 'us-east-1', tmpDir, output: srv.output, stop: srv.stop };
    } catch (err) {
      await srv.stop();
      throw err;
    }
  });
}

module.exports = { start, VERSION };
