import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadConfig, selectTarget, type LoadConfigOptions } from '../../src/config/load.js';
import { locateJsonError } from '../../src/config/json-error.js';
import { formatPath, substituteEnv } from '../../src/config/env.js';
import { ConfigError } from '../../src/errors.js';
import { parsePrivateKeyPem } from '../../src/http/keys.js';

const root = mkdtempSync(path.join(tmpdir(), 'conformance-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SECRET = 'S3CRET-do-not-print-7f3a9';
const edPem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
const rsaPem = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
const fakeCa = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

let counter = 0;
/** A fresh folder holding keys/client.pem, ca/ca.pem, tls/{cert,key}.pem and the given config (object or raw text). */
function project(config: unknown, name = 'conformance.config.json'): string {
  const dir = path.join(root, `p${++counter}`);
  for (const sub of ['keys', 'ca', 'tls']) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, 'keys', 'client.pem'), edPem, { mode: 0o600 });
  writeFileSync(path.join(dir, 'keys', 'ec.pem'), ecPem, { mode: 0o600 });
  writeFileSync(path.join(dir, 'ca', 'ca.pem'), fakeCa);
  writeFileSync(path.join(dir, 'tls', 'cert.pem'), 'cert');
  writeFileSync(path.join(dir, 'tls', 'key.pem'), 'key');
  writeFileSync(path.join(dir, name), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return dir;
}

function target(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    baseUrl: 'https://staging.example.com/v1',
    clientId: 'acme',
    clientSecret: SECRET,
    keyId: 'acme-2026',
    privateKeyFile: 'keys/client.pem',
    ...overrides,
  };
}

const withTarget = (t: Record<string, unknown>, name = 'staging') => ({ targets: { [name]: t } });

async function configError(promise: Promise<unknown> | (() => unknown)): Promise<ConfigError> {
  let caught: unknown;
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  const err = caught as ConfigError;
  expect(err.exitCode).toBe(2);
  expect(err.message).toMatch(/^config: /);
  expect(err.message).not.toContain('\n');
  expect(err.message).not.toContain(SECRET);
  for (const pem of [edPem, ecPem, rsaPem]) expect(err.message).not.toContain(pem.split('\n')[1]!.slice(0, 24));
  return err;
}

const load = (dir: string, options: LoadConfigOptions = {}) => loadConfig({ cwd: dir, env: {}, ...options });

describe('loadConfig: valid files', () => {
  it('loads a complete target: paths resolved against the config folder, key parsed, defaults applied', async () => {
    const dir = project(
      withTarget(
        target({
          baseUrl: 'https://staging.example.com/v1/',
          caFile: 'ca/ca.pem',
          fixtures: { customerId: 1042, accountId: 5001, unknownId: 999999 },
          webhook: {
            listen: '0.0.0.0:0',
            publicUrl: 'https://hooks.example.com/in',
            tls: { certFile: 'tls/cert.pem', keyFile: 'tls/key.pem' },
          },
        }),
      ),
    );
    // Loaded from another folder through --config: relative paths still start from the config file's folder.
    const config = await load(root, { configPath: path.join(path.relative(root, dir), 'conformance.config.json') });
    expect(config.path).toBe(path.join(dir, 'conformance.config.json'));
    const t = selectTarget(config, 'staging');
    expect(t.name).toBe('staging');
    expect(t.baseUrl).toBe('https://staging.example.com/v1');
    expect(t.clientSecret).toBe(SECRET);
    expect(t.privateKeyPem).toBe(edPem);
    expect(t.privateKey).toEqual(parsePrivateKeyPem(edPem).seed);
    expect(t.privateKey).toHaveLength(32);
    expect(t.ca).toBe(fakeCa);
    expect(t.fixtures).toEqual({ customerId: 1042, accountId: 5001, unknownId: 999999 });
    expect(t.webhook).toEqual({
      listen: '0.0.0.0:0',
      publicUrl: 'https://hooks.example.com/in',
      tls: { certFile: path.join(dir, 'tls', 'cert.pem'), keyFile: path.join(dir, 'tls', 'key.pem') },
    });
  });

  it('defaults the webhook to 127.0.0.1:0 with a self-signed certificate, and fixtures to none', async () => {
    const t = selectTarget(await load(project(withTarget(target()))), 'staging');
    expect(t.webhook).toEqual({ listen: '127.0.0.1:0', tls: 'self-signed' });
    expect(t.fixtures).toEqual({});
    expect(t.ca).toBeUndefined();
    expect(t.concurrency).toBeUndefined();
  });

  it("takes the target's concurrency, a whole number from 1 to 64", async () => {
    expect(selectTarget(await load(project(withTarget(target({ concurrency: 1 })))), 'staging').concurrency).toBe(1);
    for (const bad of [0, 65, 2.5, '4']) {
      const err = await configError(load(project(withTarget(target({ concurrency: bad })))));
      expect(err.message, String(bad)).toMatch(/^config: targets\.staging\.concurrency .*a whole number from 1 to 64/);
    }
  });

  it("takes the target's revoke shape (revoke.body none, form or json), and names the field of a wrong one", async () => {
    expect(selectTarget(await load(project(withTarget(target()))), 'staging').revoke).toBeUndefined();
    for (const body of ['none', 'form', 'json'])
      expect(selectTarget(await load(project(withTarget(target({ revoke: { body } })))), 'staging').revoke).toEqual({
        body,
      });
    const wrong = await configError(load(project(withTarget(target({ revoke: { body: 'xml' } })))));
    expect(wrong.message).toMatch(
      /^config: targets\.staging\.revoke\.body is "xml": it must be "none" \(the token in Authorization alone\), "form" \(a form body token=, RFC 7009\) or "json"/,
    );
    const missing = await configError(load(project(withTarget(target({ revoke: {} })))));
    expect(missing.message).toMatch(
      /^config: targets\.staging\.revoke\.body is missing: add "body": "none", "form" or "json"/,
    );
  });

  it('loads the example config with its secret from the environment', async () => {
    const example = fileURLToPath(new URL('../../fixtures/example.config.json', import.meta.url));
    const config = await loadConfig({ configPath: example, env: { CONFORMANCE_CLIENT_SECRET: SECRET } });
    const t = selectTarget(config, 'staging');
    expect(t.clientSecret).toBe(SECRET);
    expect(t.baseUrl).toMatch(/^https:\/\/.+\/v1$/);
    expect(Object.keys(t.fixtures).sort()).toEqual(
      [
        'accountId',
        'assetId',
        'customerId',
        'mutableCustomerId',
        'otherCustomerId',
        'paginationCustomerId',
        'transactionId',
        'unknownId',
      ].sort(),
    );
    expect(t.privateKey).toHaveLength(32);
    expect(t.webhook.publicUrl).toMatch(/^https:\/\//);
  });

  it('substitutes ${VAR} whole and embedded, and $${ gives a literal ${', async () => {
    const dir = project(
      withTarget(
        target({
          baseUrl: 'https://${HOST}/v1',
          clientSecret: '${SECRET_VAR}',
          clientId: 'acme-$${literal}',
          privateKeyFile: undefined,
          privateKey: '${KEY_PEM}',
          fixtures: { customerId: '${CUSTOMER_ID}', accountId: '0042' },
        }),
      ),
    );
    const t = selectTarget(
      await load(dir, { env: { HOST: 'api.example.com', SECRET_VAR: SECRET, KEY_PEM: edPem, CUSTOMER_ID: '1042' } }),
      'staging',
    );
    expect(t.baseUrl).toBe('https://api.example.com/v1');
    expect(t.clientSecret).toBe(SECRET);
    expect(t.clientId).toBe('acme-${literal}');
    expect(t.privateKeyPem).toBe(edPem);
    expect(t.fixtures).toEqual({ customerId: 1042, accountId: 42 });
  });

  it('reads a one-line PEM with literal \\n sequences, as CI secret stores hold it', async () => {
    const dir = project(withTarget(target({ privateKeyFile: undefined, privateKey: '${KEY}' })));
    const t = selectTarget(await load(dir, { env: { KEY: edPem.replace(/\n/g, '\\n') } }), 'staging');
    expect(t.privateKey).toEqual(parsePrivateKeyPem(edPem).seed);
  });

  it('accepts a leading byte order mark and a $schema property', async () => {
    const dir = project(
      `\uFEFF${JSON.stringify({ $schema: '../schemas/config.schema.json', ...withTarget(target()) })}`,
    );
    expect(Object.keys((await load(dir)).targets)).toEqual(['staging']);
  });

  it('returns no targets when there is no config file and no --config', async () => {
    const empty = mkdtempSync(path.join(root, 'empty-'));
    expect(await load(empty)).toEqual({ targets: {} });
  });

  it('with the target option resolves only that target, so other targets need not have their variables set', async () => {
    const dir = project({ targets: { staging: target(), prod: target({ clientSecret: '${PROD_SECRET}' }) } });
    const config = await load(dir, { target: 'staging' });
    expect(Object.keys(config.targets)).toEqual(['staging']);
    expect((await load(dir, { target: 'local' })).targets).toEqual({});
    const err = await configError(load(dir));
    expect(err.message).toContain('PROD_SECRET');
    const unknown = await configError(load(dir, { target: 'stagin' }));
    expect(unknown.message).toContain('"staging", "prod"');
    expect(unknown.message).toContain('did you mean "staging"?');
  });
});

describe('loadConfig: errors are one line, exit 2, naming the field and what to do', () => {
  it('--config naming a missing file', async () => {
    const err = await configError(load(root, { configPath: 'nope/conformance.json' }));
    expect(err.message).toContain('--config');
    expect(err.message).toContain(path.join(root, 'nope', 'conformance.json'));
    expect(err.message).toContain('does not exist');
  });

  it('missing baseUrl', async () => {
    const t = target();
    delete t.baseUrl;
    const err = await configError(load(project(withTarget(t))));
    expect(err.message).toBe(
      'config: targets.staging.baseUrl is missing: add the target\'s base URL including /v1, e.g. "https://staging.example.com/v1"',
    );
  });

  it('missing targets', async () => {
    const err = await configError(load(project({})));
    expect(err.message).toMatch(/^config: targets is missing: add "targets"/);
  });

  it('baseUrl that is not an http(s) URL, given through a variable', async () => {
    const err = await configError(
      load(project(withTarget(target({ baseUrl: '${BASE}' }))), { env: { BASE: 'staging.example.com/v1' } }),
    );
    expect(err.message).toBe(
      'config: targets.staging.baseUrl is "staging.example.com/v1": it must be an http or https URL including /v1, without query, fragment or user name, e.g. "https://staging.example.com/v1"',
    );
  });

  it('an unset variable names the field and the variable', async () => {
    const err = await configError(load(project(withTarget(target({ clientSecret: '${ACME_SECRET}' })))));
    expect(err.message).toBe(
      'config: targets.staging.clientSecret uses ${ACME_SECRET}, which is not set: export ACME_SECRET before running',
    );
  });

  it('an empty variable is refused too (CI passes an undefined secret as empty)', async () => {
    const err = await configError(
      load(project(withTarget(target({ clientSecret: '${ACME_SECRET}' }))), { env: { ACME_SECRET: '' } }),
    );
    expect(err.message).toContain('${ACME_SECRET}, which is empty');
  });

  it('a malformed ${ reference names the field without quoting it', async () => {
    const inlineSecret = `${SECRET}\${oops`;
    const err = await configError(load(project(withTarget(target({ clientSecret: inlineSecret })))));
    expect(err.message).toContain('targets.staging.clientSecret');
    expect(err.message).toContain('$${');
  });

  it('an EC key file names the field and the path and says it is not Ed25519', async () => {
    const err = await configError(load(project(withTarget(target({ privateKeyFile: 'keys/ec.pem' })))));
    expect(err.message).toBe(
      "config: targets.staging.privateKeyFile (keys/ec.pem) is an ec key, not Ed25519: generate one with 'openssl genpkey -algorithm ed25519'",
    );
  });

  it('an inline RSA key names privateKey and never quotes the key', async () => {
    const err = await configError(
      load(project(withTarget(target({ privateKeyFile: undefined, privateKey: '${KEY}' }))), { env: { KEY: rsaPem } }),
    );
    expect(err.message).toContain('targets.staging.privateKey is an rsa key, not Ed25519');
    expect(err.message).not.toContain(rsaPem.split('\n')[1]!);
  });

  it('an inline privateKey that is a path suggests privateKeyFile', async () => {
    const err = await configError(
      load(project(withTarget(target({ privateKeyFile: undefined, privateKey: 'keys/client.pem' })))),
    );
    expect(err.message).toContain('targets.staging.privateKey is not a PKCS8 PEM private key');
    expect(err.message).toContain('use privateKeyFile');
  });

  it('a key file that does not exist names the field, the path as given and where it looked', async () => {
    const dir = project(withTarget(target({ privateKeyFile: 'keys/missing.pem' })));
    const err = await configError(load(dir));
    expect(err.message).toContain('targets.staging.privateKeyFile (keys/missing.pem) does not exist');
    expect(err.message).toContain(path.join(dir, 'keys', 'missing.pem'));
  });

  it('a caFile without a certificate', async () => {
    const err = await configError(load(project(withTarget(target({ caFile: 'keys/client.pem' })))));
    expect(err.message).toContain('targets.staging.caFile (keys/client.pem) holds no PEM certificate');
  });

  it('both privateKey and privateKeyFile', async () => {
    const err = await configError(load(project(withTarget(target({ privateKey: SECRET })))));
    expect(err.message).toBe('config: targets.staging has both privateKey and privateKeyFile: keep only one');
  });

  it('neither privateKey nor privateKeyFile', async () => {
    const err = await configError(load(project(withTarget(target({ privateKeyFile: undefined })))));
    expect(err.message).toMatch(
      /^config: targets\.staging\.privateKeyFile is missing: give "privateKeyFile" .* or "privateKey"/,
    );
  });

  it('a typo in a property name names it and suggests the right one', async () => {
    const t = target({ baseURL: 'https://staging.example.com/v1' });
    delete t.baseUrl;
    const err = await configError(load(project(withTarget(t))));
    expect(err.message).toBe('config: targets.staging.baseURL is not a known property: did you mean "baseUrl"?');

    const fixture = await configError(load(project(withTarget(target({ fixtures: { customerID: 1, bogus: 2 } })))));
    expect(fixture.message).toBe(
      'config: targets.staging.fixtures.customerID is not a known property: did you mean "customerId"?',
    );

    const top = await configError(load(project({ target: {} })));
    expect(top.message).toBe('config: target is not a known property: did you mean "targets"?');

    const far = await configError(load(project(withTarget(target({ colour: 'blue' })))));
    expect(far.message).toMatch(
      /^config: targets\.staging\.colour is not a known property: remove it, or use one of baseUrl, clientId, /,
    );
  });

  it('a target named local', async () => {
    const err = await configError(load(project(withTarget(target(), 'local'))));
    expect(err.message).toContain('targets.local');
    expect(err.message).toContain('built-in');
  });

  it('fixtures: digit strings convert; other strings, fractions and ids beyond 2^53 are refused', async () => {
    const ok = await load(project(withTarget(target({ fixtures: { customerId: '9007199254740991', unknownId: 0 } }))));
    expect(selectTarget(ok, 'staging').fixtures).toEqual({ customerId: 9007199254740991, unknownId: 0 });

    const word = await configError(load(project(withTarget(target({ fixtures: { customerId: 'abc' } })))));
    expect(word.message).toMatch(
      /^config: targets\.staging\.fixtures\.customerId is "abc": it must be a non-negative integer id/,
    );

    const fraction = await configError(load(project(withTarget(target({ fixtures: { assetId: 1.5 } })))));
    expect(fraction.message).toContain('targets.staging.fixtures.assetId is 1.5: it must be');

    const big = await configError(load(project(withTarget(target({ fixtures: { accountId: '9007199254740993' } })))));
    expect(big.message).toContain('targets.staging.fixtures.accountId is 9007199254740993: ids above 9007199254740991');

    const fromEnv = await configError(
      load(project(withTarget(target({ fixtures: { accountId: '${ID}' } }))), { env: { ID: '12a' } }),
    );
    expect(fromEnv.message).toContain('targets.staging.fixtures.accountId is "12a"');
  });

  it('webhook: publicUrl must be https, listen must be host:port, tls one of the forms', async () => {
    const http = await configError(
      load(project(withTarget(target({ webhook: { publicUrl: 'http://hooks.example.com/in' } })))),
    );
    expect(http.message).toContain(
      'targets.staging.webhook.publicUrl is "http://hooks.example.com/in": it must be an https URL',
    );

    const listen = await configError(load(project(withTarget(target({ webhook: { listen: '127.0.0.1:70000' } })))));
    expect(listen.message).toContain('targets.staging.webhook.listen is "127.0.0.1:70000"');

    const tls = await configError(load(project(withTarget(target({ webhook: { tls: 'selfsigned' } })))));
    expect(tls.message).toContain('targets.staging.webhook.tls is "selfsigned": it must be "self-signed", "none" or');

    const half = await configError(
      load(project(withTarget(target({ webhook: { tls: { certFile: 'tls/cert.pem' } } })))),
    );
    expect(half.message).toMatch(/^config: targets\.staging\.webhook\.tls\.keyFile is missing: /);

    const gone = await configError(
      load(project(withTarget(target({ webhook: { tls: { certFile: 'tls/cert.pem', keyFile: 'tls/nope.pem' } } })))),
    );
    expect(gone.message).toContain('targets.staging.webhook.tls.keyFile (tls/nope.pem) does not exist');
  });

  it("signing: the fields given are taken (components in the spec's order), the rest left to the run to learn", async () => {
    const none = selectTarget(await load(project(withTarget(target()))), 'staging');
    expect(none.signing).toBeUndefined();
    const some = selectTarget(
      await load(project(withTarget(target({ signing: { windowSeconds: 30, $comment: 'the proxy' } })))),
      'staging',
    );
    expect(some.signing).toEqual({ windowSeconds: 30 });
    const all = selectTarget(
      await load(
        project(
          withTarget(
            target({ signing: { windowSeconds: 10, components: ['@query', '@path', '@method'], label: 'req' } }),
          ),
        ),
      ),
      'staging',
    );
    expect(all.signing).toEqual({ windowSeconds: 10, components: ['@method', '@path', '@query'], label: 'req' });
  });

  it('signing: a window, a component or a label of the wrong form, and components that leave the method or target uncovered, each in one line', async () => {
    const cases: Array<[unknown, RegExp | string]> = [
      [
        { windowSeconds: 0 },
        'config: targets.staging.signing.windowSeconds is 0: it must be a whole number of seconds from 1 to 3600 between created and expires, e.g. 60',
      ],
      [{ windowSeconds: 4000 }, /^config: targets\.staging\.signing\.windowSeconds is 4000: it must be a whole number/],
      [{ windowSeconds: '60' }, /^config: targets\.staging\.signing\.windowSeconds is "60": it must be a whole number/],
      [{ windowSeconds: 2.5 }, /^config: targets\.staging\.signing\.windowSeconds is 2\.5: /],
      [
        { components: ['@method', '@authority'] },
        'config: targets.staging.signing.components.1 is "@authority": it must be one of "@method", "@target-uri", "@path", "@query"',
      ],
      [
        { components: ['@method', '@path', '@path'] },
        /^config: targets\.staging\.signing\.components is an array: it must be a list of the derived components covering the method and the target, each once/,
      ],
      [{ components: '@method' }, /^config: targets\.staging\.signing\.components is a string: it must be a list/],
      [
        { components: ['@target-uri', '@path'] },
        /^config: targets\.staging\.signing\.components is \["@target-uri","@path"\]: it must include "@method" \(a signature without it would be valid for any method\)/,
      ],
      [
        { components: ['@method', '@path'] },
        /^config: targets\.staging\.signing\.components is \["@method","@path"\]: it must cover the target, with "@target-uri" or with "@path" and "@query" together/,
      ],
      [
        { label: 'Sig1' },
        'config: targets.staging.signing.label is "Sig1": it must be a structured-field key (lowercase letters, digits, _ - . *), e.g. "sig1"',
      ],
      [
        { windowSecond: 30 },
        'config: targets.staging.signing.windowSecond is not a known property: did you mean "windowSeconds"?',
      ],
      [
        '60s',
        /^config: targets\.staging\.signing is a string: it must be an object with windowSeconds, components and label, all optional$/,
      ],
    ];
    for (const [signing, expected] of cases) {
      const err = await configError(load(project(withTarget(target({ signing })))));
      if (typeof expected === 'string') expect(err.message, JSON.stringify(signing)).toBe(expected);
      else expect(err.message, JSON.stringify(signing)).toMatch(expected);
    }
  });

  it('wrong types name the field without showing a secret value', async () => {
    const err = await configError(load(project(withTarget(target({ clientSecret: 12345 })))));
    expect(err.message).toBe(
      'config: targets.staging.clientSecret is a number: it must be a non-empty string, normally "${CONFORMANCE_CLIENT_SECRET}"',
    );
    expect(err.message).not.toContain('12345');

    const notObject = await configError(load(project({ targets: { staging: 'https://x/v1' } })));
    expect(notObject.message).toMatch(/^config: targets\.staging is a string: it must be an object with baseUrl/);

    const array = await configError(load(project('[]')));
    expect(array.message).toMatch(/must hold a JSON object with "targets"/);
  });

  it('JSON syntax errors give the file, line and column, without quoting the source', async () => {
    const text = `{\n  "targets": {\n    "staging": { "clientSecret": "${SECRET}", "keyId": nope }\n  }\n}\n`;
    const dir = project(text);
    const err = await configError(load(dir));
    const column = text.split('\n')[2]!.indexOf('nope') + 1;
    expect(err.message).toBe(
      `config: ${path.join(dir, 'conformance.config.json')}:3:${column} is not valid JSON: unexpected character where a value is expected (a string needs double quotes)`,
    );

    const trailing = await configError(load(project('{"targets": {},}')));
    expect(trailing.message).toMatch(/:1:16 is not valid JSON: a trailing comma before }/);

    const unclosed = await configError(load(project(`{"targets": {"s": {"clientSecret": "${SECRET}\n`)));
    const lineBreak = '{"targets": {"s": {"clientSecret": "'.length + SECRET.length + 1;
    expect(unclosed.message).toContain(
      `:1:${lineBreak} is not valid JSON: a line break or control character inside a string`,
    );
  });
});

describe('selectTarget', () => {
  it('returns the named target, and lists the known ones (and the built-in local) otherwise', async () => {
    const config = await load(project({ targets: { staging: target(), qa: target() } }));
    expect(selectTarget(config, 'qa').name).toBe('qa');
    const err = await configError(() => selectTarget(config, 'prod'));
    expect(err.message).toBe(
      `config: no target named "prod" in ${config.path}: known targets are "staging", "qa" and the built-in "local"`,
    );
  });

  it('without a config file says how to create one', async () => {
    const err = await configError(() => selectTarget({ targets: {} }, 'staging'));
    expect(err.message).toContain('built-in "local"');
    expect(err.message).toContain('--config FILE');
  });
});

describe('env substitution and helpers', () => {
  it('substitutes every string value, leaving keys and other types alone', () => {
    const out = substituteEnv({ a: ['${X}', 1, true, null, { '${X}': 'x${X}y' }] }, { X: 'v' });
    expect(out).toEqual({ a: ['v', 1, true, null, { '${X}': 'xvy' }] });
  });

  it('formats paths in dotted form, quoting awkward keys', () => {
    expect(formatPath(['targets', 'staging', 'baseUrl'])).toBe('targets.staging.baseUrl');
    expect(formatPath(['targets', 'eu.west', 'fixtures'])).toBe('targets["eu.west"].fixtures');
    expect(formatPath([])).toBe('(top level)');
  });

  it('locates JSON errors that JSON.parse reports, and none in valid JSON', () => {
    for (const bad of ['', '{', '{"a" 1}', '{"a": 1} x', '[1,]', "{'a': 1}", '{"a": "\\q"}', '{"a": 01}', '// c\n{}']) {
      expect(() => JSON.parse(bad)).toThrow();
      expect(locateJsonError(bad), bad).toBeDefined();
    }
    const valid = '{"a": [1, -2.5e3, "x\\u00e9\\n", true, false, null, {}], "b": {}}';
    expect(JSON.parse(valid)).toBeTruthy();
    expect(locateJsonError(valid)).toBeUndefined();
  });
});

describe('schemas/config.schema.json', () => {
  const schema = JSON.parse(
    readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

  it('compiles under draft 2020-12 in strict mode, with $id and title', () => {
    expect(schema.$id).toMatch(/config\.schema\.json$/);
    expect(schema.title).toBeTruthy();
    expect(() =>
      new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true }).compile(schema),
    ).not.toThrow();
  });

  it('describes every property, so editors can show it', () => {
    const undocumented: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const [name, sub] of Object.entries(properties ?? {})) {
        if (typeof (sub as { description?: unknown }).description !== 'string') undocumented.push(`${where}.${name}`);
      }
      for (const [key, sub] of Object.entries(node)) walk(sub, `${where}/${key}`);
    };
    walk(schema, '#');
    expect(undocumented).toEqual([]);
  });

  it('accepts the raw example file, ${VAR} strings included, as an editor would see it', () => {
    const validate = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true }).compile(schema);
    const raw = JSON.parse(
      readFileSync(new URL('../../fixtures/example.config.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(validate(raw), JSON.stringify(validate.errors)).toBe(true);
    const withVars = withTarget(
      target({ baseUrl: '${BASE_URL}', fixtures: { customerId: '${CUSTOMER_ID}' }, webhook: { tls: '${TLS}' } }),
    );
    expect(validate(withVars), JSON.stringify(validate.errors)).toBe(true);
  });
});
