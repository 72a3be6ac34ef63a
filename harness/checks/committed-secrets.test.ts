import { afterEach, describe, expect, it } from 'vitest';
import { environmentSecrets } from '../guarded/environment-secrets.js';
import { committedSecretsCheck } from './committed-secrets.js';
import type { CheckInput, PairRun } from './types.js';

const TOKEN = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

describe('the secrets an environment holds', () => {
  it('takes the variables named as secrets, at 8 characters and more, and passwords in URLs at 6 and more', () => {
    const env = {
      STRIPE_API_KEY: TOKEN,
      GITHUB_TOKEN: 'ghp_abcdefgh',
      DB_PASSWORD: '12345678a',
      SHORT_SECRET: '1234567',
      EXACT_SECRET: 'abcdefgh',
      PIN_SECRET: '123456789',
      SIGNING_KEY: 'k3y-material-here',
      SSH_KEY_PATH: '/home/me/.ssh/id_ed25519',
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      JWT_PUBLIC_KEY: 'MIIBIjANBgkqhkiG9w0BAQEF',
      KEYBOARD_LAYOUT: 'de-nodeadkeys',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.1',
      PWD: '/work/orders',
      DATABASE_URL: 'postgres://app:pa55wd@db/orders',
      CACHE_URL: 'redis://app:12345@cache/0',
      PLAIN_URL: 'https://example.com/a',
    };
    expect(environmentSecrets(env)).toEqual([
      { source: 'DATABASE_URL (the password in its URL)', value: 'pa55wd' },
      { source: 'DB_PASSWORD', value: '12345678a' },
      { source: 'EXACT_SECRET', value: 'abcdefgh' },
      { source: 'GITHUB_TOKEN', value: 'ghp_abcdefgh' },
      { source: 'SIGNING_KEY', value: 'k3y-material-here' },
      { source: 'STRIPE_API_KEY', value: TOKEN },
    ]);
  });
});

describe('the committed-secrets check', () => {
  const saved = process.env.ORDERS_API_TOKEN;
  afterEach(() => {
    if (saved === undefined) delete process.env.ORDERS_API_TOKEN;
    else process.env.ORDERS_API_TOKEN = saved;
  });
  const input = (files: Record<string, string>) =>
    ({
      pair: { files: new Map(Object.entries(files)), scenario: { name: 'checkout' }, runtime: { name: 'python' } },
    }) as unknown as CheckInput & { pair: PairRun };

  it('names the file, the line and the variable of a secret as given or base64-encoded, never its value', async () => {
    process.env.ORDERS_API_TOKEN = TOKEN;
    const findings = await committedSecretsCheck.run(
      input({
        'cordis.yml': 'plain\n',
        'transcript.yaml': `a\nb\n  value: https://pay.example/?t=${Buffer.from(TOKEN).toString('base64')}\n`,
      }),
    );
    expect(findings).toEqual([
      {
        check: 'committed-secrets',
        severity: 'error',
        message:
          'snapshots/checkout/python/transcript.yaml line 3 holds the value of the environment variable ORDERS_API_TOKEN: committed, it would publish the secret. Keep it out of what the tools answer, or replace it with a pattern under redactions in concord.config.yml',
      },
    ]);
    expect(JSON.stringify(findings)).not.toContain(TOKEN);
  });

  it('finds nothing where the value is redacted or the environment holds no secret', async () => {
    process.env.ORDERS_API_TOKEN = TOKEN;
    expect(await committedSecretsCheck.run(input({ 'transcript.yaml': 'value: <order-token-1>\n' }))).toEqual([]);
    delete process.env.ORDERS_API_TOKEN;
    expect(await committedSecretsCheck.run(input({ 'transcript.yaml': `value: ${TOKEN}\n` }))).toEqual([]);
  });
});
