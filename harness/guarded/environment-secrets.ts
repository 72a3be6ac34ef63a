import { holdSecret } from './secret.js';

/** A value of this process's environment that reads as a secret, and where it comes from. */
export interface EnvironmentSecret {
  /** The variable, e.g. `STRIPE_API_KEY`, or `DATABASE_URL (the password in its URL)`. */
  source: string;
  value: string;
}

/** Name segments (split at `_`, `-` and `.`) that mark a variable as holding a secret. */
const SECRET_SEGMENTS = new Set([
  'TOKEN',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'CREDENTIALS',
  'APIKEY',
  'KEY',
]);
/** A last segment that says the variable names where a secret is, or which one, not the secret itself. */
const POINTER_SEGMENTS = new Set(['PATH', 'FILE', 'DIR', 'SOCK', 'ID', 'NAME', 'TYPE', 'URL', 'TTL']);
/** Shorter values are ordinary words as often as secrets. */
const MIN_SECRET = 8;

function namedAsSecret(name: string): boolean {
  const segments = name
    .toUpperCase()
    .split(/[_.-]+/)
    .filter(Boolean);
  if (segments.includes('PUBLIC') || POINTER_SEGMENTS.has(segments.at(-1) ?? '')) return false;
  return segments.some((segment) => SECRET_SEGMENTS.has(segment));
}

function passwordInUrl(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    const password = decodeURIComponent(new URL(value).password);
    return password.length >= 6 ? password : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The secrets a backend's environment holds: the value of every variable named as one (`*_TOKEN`,
 * `*_SECRET`, `*_PASSWORD`, `*_API_KEY`, `*_KEY` but not `*_PUBLIC_KEY` nor `*_KEY_FILE`) of at least 8
 * characters that is not a plain number, and the password in any variable's URL (`DATABASE_URL=postgres://
 * user:pass@…`). A tool that echoes one would put it in a snapshot, and a snapshot is committed.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): EnvironmentSecret[] {
  const found: EnvironmentSecret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (namedAsSecret(name) && value.length >= MIN_SECRET && !/^\d+$/.test(value)) found.push({ source: name, value });
    const password = passwordInUrl(value);
    if (password !== undefined) found.push({ source: `${name} (the password in its URL)`, value: password });
  }
  return found.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/**
 * Runs `load` (a plugin module's import); a secret it put in the environment (a token its own `.env` held,
 * loaded with dotenv) is scrubbed from then on, like those of the environment concord started in.
 */
export async function holdingSecretsItSets<T>(load: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  try {
    return await load();
  } finally {
    const set = Object.fromEntries(
      Object.entries(process.env).filter(([name, value]) => value !== undefined && before[name] !== value),
    );
    for (const { value } of environmentSecrets(set)) holdSecret(value);
  }
}
