import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installedApart } from '../../test/packed.js';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

const TOKEN = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
/** Secrets of other shapes: quotes, a backslash and markup that JSON, YAML and HTML escape; a PEM key of many lines. */
const SECRETS = {
  ORDERS_API_TOKEN: TOKEN,
  LEDGER_PASSWORD: 'plainpassword123',
  DB_PASSWORD: 'p"a\\ss&<>word9',
  SIGNING_KEY: [
    '-----BEGIN PRIVATE KEY-----',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
    'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
    '-----END PRIVATE KEY-----',
  ].join('\n'),
};
/** What of each secret no file and no line may hold. */
const TELLTALES = [
  TOKEN,
  'plainpassword123',
  'word9',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  'MzEfYyjiWA4R4',
];

// Through the real CLI: a tool that echoes a token from its environment.
const SCENARIO = `name: pay
description: A tool that answers with a payment link carrying the API token.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: pay
    plugin: ../plugins/pay.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Link?
  - assistant:
      run_code:
        description: link
        typescript: "return await tools.payment_link({});"
        python: "return await tools.payment_link({})"
  - final: Here.
`;
const PLUGIN = `export default {
  name: 'pay',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'payment_link', description: 'A link to pay.', parameters: { type: 'object', properties: {} },
      execute: async () => ({ url: 'https://pay.example/checkout?key=' + process.env.ORDERS_API_TOKEN,
        password: process.env.LEDGER_PASSWORD, marked: process.env.DB_PASSWORD, pem: process.env.SIGNING_KEY }) });
  },
};
`;

let root = '';
// The gate as a project installs it: concord from its packed tarball, in a folder of its own beside the project, so
// that every file below the project is one the gate wrote.
let install = { bin: '', dir: '' };
beforeAll(async () => {
  root = await projectWith('secrets', { 'scenarios/pay.yml': SCENARIO, 'plugins/pay.mjs': PLUGIN });
  install = await installedApart('secrets');
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(install.dir, { recursive: true, force: true });
});

/** Every file below `dir`, as text. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'));
}

it('a gate whose tool echoes secrets of its environment fails naming each variable, and shows or writes no value anywhere', () => {
  const gate = concordIn(
    () => root,
    60_000,
    () => install.bin,
  )({ ...SECRETS, CI: 'true' }, 'gate', '--update=new', '--results', '.concord/results.json', '--reporter', 'junit');
  expect(gate.status, gate.stderr).toBe(1);
  expect(gate.stdout).toContain('committed-secrets: snapshots/pay/typescript/transcript.yaml line ');
  for (const name of Object.keys(SECRETS))
    expect(gate.stdout).toContain(`holds the value of the environment variable ${name}`);
  // The report shows the new transcript, the values scrubbed.
  expect(readFileSync(join(root, '.concord', 'report.html'), 'utf8')).toContain('checkout?key=[redacted]');
  const files = filesBelow(root);
  for (const telltale of TELLTALES) {
    expect(gate.stdout + gate.stderr).not.toContain(telltale);
    for (const text of files)
      expect(text.includes(telltale) || text.includes(Buffer.from(telltale).toString('base64'))).toBe(false);
  }
  expect(readdirSync(join(root, '.concord')).sort()).toEqual(
    expect.arrayContaining(['junit.xml', 'report.html', 'results.json']),
  );
  expect(readdirSync(root).sort()).toEqual(['.concord', 'plugins', 'scenarios']);
});
