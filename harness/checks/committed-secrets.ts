import { COMMITTED_SECRETS, type Finding } from '../findings.js';
import { environmentSecrets } from '../guarded/environment-secrets.js';
import { secretForms } from '../guarded/secret.js';
import type { PairCheck } from './types.js';

/**
 * A snapshot is committed: a tool that answers with a token from its environment (a signed URL, a
 * connection string, a debug echo) would publish it with the next `--update`. A pair whose snapshot files
 * hold a secret of the environment, in any form the scrubber knows (as given, in another case, URL-encoded,
 * base64), fails; nothing of it is written or proposed, and what concord prints shows `[redacted]`.
 */
export const committedSecretsCheck: PairCheck = {
  id: COMMITTED_SECRETS,
  needsPair: 'it reads the snapshot files a gate writes',
  run({ pair: { files, scenario, runtime } }) {
    const findings: Finding[] = [];
    const secrets = environmentSecrets().map(({ source, value }) => ({ source, forms: secretForms(value) }));
    if (secrets.length === 0) return findings;
    for (const [file, text] of files) {
      const lines = text.split('\n');
      for (const { source, forms } of secrets) {
        const line = lines.findIndex((l) => forms.some((form) => l.toLowerCase().includes(form.toLowerCase())));
        if (line < 0) continue;
        findings.push({
          check: COMMITTED_SECRETS,
          severity: 'error',
          message: `snapshots/${scenario.name}/${runtime.name}/${file} line ${line + 1} holds the value of the environment variable ${source}: committed, it would publish the secret. Keep it out of what the tools answer, or replace it with a pattern under redactions in concord.config.yml`,
        });
      }
    }
    return findings;
  },
};
