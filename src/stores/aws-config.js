'use strict';
// What the shared AWS config and credentials files say about a profile, read as aws-cli
// reads them: whether it exists, and the S3 endpoint it names (`endpoint_url` in the
// profile, or `s3 = endpoint_url = ...` in the `[services NAME]` section the profile names
// with `services = NAME`). The SDK's own chain still resolves credentials and region.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { UsageError } = require('../errors');

const configFile = (env) => env.AWS_CONFIG_FILE || path.join(os.homedir(), '.aws', 'config');
const credentialsFile = (env) => env.AWS_SHARED_CREDENTIALS_FILE || path.join(os.homedir(), '.aws', 'credentials');

// INI sections: name -> {key: value}; an indented line under "key =" is a sub-setting
// ("s3 =\n  endpoint_url = ..." gives {"s3.endpoint_url": ...}).
function parseIni(text) {
  const sections = new Map();
  let cur = null, parent = null;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const sec = /^\s*\[([^\]]+)\]/.exec(raw);
    if (sec) {
      const name = sec[1].trim().replace(/\s+/g, ' ');
      cur = sections.get(name) || {};
      sections.set(name, cur);
      parent = null;
      continue;
    }
    if (!cur) continue;
    const kv = /^(\s*)([^=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!kv) continue;
    const [, indent, key, value] = kv;
    if (indent && parent) cur[`${parent}.${key.toLowerCase()}`] = value;
    else {
      cur[key.toLowerCase()] = value;
      parent = value === '' ? key.toLowerCase() : null;
    }
  }
  return sections;
}

function readIni(file) {
  try { return parseIni(fs.readFileSync(file, 'utf8')); } catch { return new Map(); }
}

/**
 * The profile's settings: {name, exists, endpointUrl, explicit}. explicit: the profile was
 * asked for (--profile or AWS_PROFILE), so one that does not exist is an error.
 */
function profileSettings(profile, env = process.env) {
  const explicit = Boolean(profile || env.AWS_PROFILE);
  const name = profile || env.AWS_PROFILE || 'default';
  const config = readIni(configFile(env));
  const creds = readIni(credentialsFile(env));
  const section = config.get(name === 'default' ? 'default' : `profile ${name}`) || (name === 'default' ? null : config.get(name) || null);
  const exists = Boolean(section || creds.get(name));
  let endpointUrl;
  if (section) {
    const svc = section.services && config.get(`services ${section.services}`);
    endpointUrl = (svc && svc['s3.endpoint_url']) || section.endpoint_url || undefined;
  }
  const ignore = /^true$/i.test(env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS || '') || /^true$/i.test((section && section.ignore_configured_endpoint_urls) || '');
  return { name, exists, explicit, endpointUrl, ignore };
}

// A profile that was asked for must exist in one of the two files.
function checkProfile(profile, env = process.env, option = '--profile') {
  const p = profileSettings(profile, env);
  if (p.explicit && !p.exists) {
    throw new UsageError(`the profile ${JSON.stringify(p.name)} does not exist (${option}${profile ? '' : ' from AWS_PROFILE'}): it is in neither ${configFile(env)} nor ${credentialsFile(env)}`);
  }
  return p;
}

/**
 * The endpoint, in aws-cli's order: the option, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the
 * profile's services section, the profile's endpoint_url; undefined for AWS itself.
 */
function configuredEndpoint(profile, env = process.env) {
  const p = profileSettings(profile, env);
  if (p.ignore) return undefined;
  return env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || p.endpointUrl || undefined;
}

module.exports = { parseIni, profileSettings, checkProfile, configuredEndpoint };
