import { describe, expect, it } from 'vitest';
import { holdSecret, scrubSecretBytes, scrubSecrets, secretForms } from './secret.js';

const KEY = 'sk-Held/Key+0a1b2c=3d';

describe('held secrets', () => {
  it('lists the key as given, in upper and lower case, URL-encoded and in base64 at every alignment', () => {
    const forms = secretForms(KEY);
    for (const form of [KEY, KEY.toUpperCase(), KEY.toLowerCase(), encodeURIComponent(KEY)])
      expect(forms).toContain(form);
    for (const prefix of ['', 'x', 'xy', 'Bearer ', 'Authorization: Basic ']) {
      const encoded = Buffer.from(`${prefix}${KEY} and more`).toString('base64');
      expect(forms.some((form) => encoded.includes(form))).toBe(true);
    }
    expect(secretForms('abc')).toEqual([]);
  });

  it('scrubs every form from text and bytes once held, and nothing else', () => {
    const text = `a ${KEY} b ${KEY.toUpperCase()} c ${encodeURIComponent(KEY)} d ${Buffer.from(`Bearer ${KEY}`).toString('base64url')} e`;
    expect(scrubSecrets(text)).toBe(text);
    holdSecret(KEY);
    const scrubbed = scrubSecrets(text);
    expect(scrubbed).toMatch(/^a \[redacted\] b \[redacted\] c \[redacted\] d \S*\[redacted\]\S* e$/);
    for (const form of secretForms(KEY)) expect(scrubbed).not.toContain(form);
    const bytes = Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(` ${KEY} `), Buffer.from('é')]);
    expect(Buffer.from(scrubSecretBytes(bytes))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(' [redacted] '), Buffer.from('é')]),
    );
    expect(scrubSecrets('nothing secret here')).toBe('nothing secret here');
  });

  it('scrubs a secret as JSON, YAML, HTML and XML escape it, and each long line of one of several lines', () => {
    const marked = 'p"a\\ss&<>word9';
    holdSecret(marked);
    const json = JSON.stringify({ pw: marked });
    const html = json.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
    expect(scrubSecrets(json)).toBe('{"pw":"[redacted]"}');
    expect(scrubSecrets(html)).toBe('{&quot;pw&quot;:&quot;[redacted]&quot;}');
    expect(scrubSecrets(JSON.stringify({ text: json }))).toBe('{"text":"{\\"pw\\":\\"[redacted]\\"}"}');
    const pem = [
      '-----BEGIN PRIVATE KEY-----',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
      'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
      'short=line',
      '-----END PRIVATE KEY-----',
    ].join('\n');
    holdSecret(pem);
    // A YAML block writes the lines one by one, indented; a JSON string keeps them with its `\n` escapes.
    const block = `key: |-\n${pem
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n')}\n`;
    expect(scrubSecrets(block)).toBe(
      'key: |-\n  -----BEGIN PRIVATE KEY-----\n  [redacted]\n  [redacted]\n  short=line\n  -----END PRIVATE KEY-----\n',
    );
    expect(scrubSecrets(JSON.stringify({ key: pem }))).toBe('{"key":"[redacted]"}');
  });
});
