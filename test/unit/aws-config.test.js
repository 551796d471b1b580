'use strict';
// The shared config file as aws-cli reads it: endpoint_url per profile and per services
// section, the order of endpoints, a profile asked for that does not exist.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseIni, profileSettings, checkProfile, configuredEndpoint } = require('../../src/stores/aws-config');

let dir, env;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-awsconfig-'));
  fs.writeFileSync(path.join(dir, 'config'), [
    '[default]', 'region = eu-west-1', '',
    '[profile minio]', 'endpoint_url = http://profile:9000', 'services = local', '',
    '[profile plain]', 'endpoint_url=http://plain:9000', '# a comment', '',
    '[profile ignoring]', 'endpoint_url = http://x:1', 'ignore_configured_endpoint_urls = true', '',
    '[services local]', 'dynamodb =', '  endpoint_url = http://dynamo:8000', 's3 =', '  endpoint_url = http://services:9000', '  addressing_style = path',
  ].join('\n'));
  fs.writeFileSync(path.join(dir, 'credentials'), '[only-creds]\naws_access_key_id = a\naws_secret_access_key = b\n');
  env = { AWS_CONFIG_FILE: path.join(dir, 'config'), AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'credentials') };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('parseIni reads sub-settings under "name ="', () => {
  const s = parseIni('[services x]\ns3 =\n  endpoint_url = http://e\nother = 1\n');
  expect(s.get('services x')).toEqual({ s3: '', 's3.endpoint_url': 'http://e', other: '1' });
});

test('the services section the profile names wins over its endpoint_url', () => {
  expect(profileSettings('minio', env)).toMatchObject({ exists: true, endpointUrl: 'http://services:9000' });
  expect(profileSettings('plain', env)).toMatchObject({ exists: true, endpointUrl: 'http://plain:9000' });
});

test('order: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, then the profile; the ignore switch turns the config off', () => {
  expect(configuredEndpoint('plain', env)).toBe('http://plain:9000');
  expect(configuredEndpoint('plain', { ...env, AWS_ENDPOINT_URL: 'http://env' })).toBe('http://env');
  expect(configuredEndpoint('plain', { ...env, AWS_ENDPOINT_URL: 'http://env', AWS_ENDPOINT_URL_S3: 'http://env-s3' })).toBe('http://env-s3');
  expect(configuredEndpoint('ignoring', env)).toBeUndefined();
  expect(configuredEndpoint('plain', { ...env, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' })).toBeUndefined();
  expect(configuredEndpoint(undefined, { ...env, AWS_PROFILE: 'plain' })).toBe('http://plain:9000');
  expect(configuredEndpoint(undefined, env)).toBeUndefined(); // default: no endpoint
});

test('a profile asked for must exist in the config or the credentials file', () => {
  expect(() => checkProfile('nosuch', env)).toThrow(/the profile "nosuch" does not exist \(--profile\)/);
  expect(() => checkProfile(undefined, { ...env, AWS_PROFILE: 'nosuch' })).toThrow(/from AWS_PROFILE/);
  expect(checkProfile('only-creds', env).exists).toBe(true);
  expect(checkProfile(undefined, env).explicit).toBe(false); // the default profile need not exist
});
