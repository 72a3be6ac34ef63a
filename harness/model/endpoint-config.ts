import { holdSecret, takeModelKey } from '../guarded/secret.js';
import { UserError } from '../user-error.js';
import { ENDPOINT_DEFAULTS, type EndpointOptions, urlSecrets } from './openai.js';

/** The model flags shared by `concord record` and `concord gate --live`. */
export interface EndpointFlags {
  modelUrl?: string;
  model?: string;
  modelTimeoutMs?: string;
  modelRetries?: string;
  allowKeyExposure?: boolean;
}

/** A missing or malformed endpoint setting: a usage error. */
export class EndpointConfigError extends UserError {}

/**
 * The endpoint from the flags, else CONCORD_MODEL_BASE_URL / CONCORD_MODEL_NAME. The key comes from
 * CONCORD_MODEL_API_KEY only (a flag would show in process listings and shell history), and is taken out of
 * the environment once read, so nothing concord starts afterwards inherits it. The key and any credentials in
 * the URL are held as secrets: scrubbed from everything concord prints or writes from then on.
 */
export function endpointOptions(flags: EndpointFlags, env: NodeJS.ProcessEnv = process.env): EndpointOptions {
  const baseUrl = flags.modelUrl ?? env.CONCORD_MODEL_BASE_URL;
  const model = flags.model ?? env.CONCORD_MODEL_NAME;
  const apiKey = takeModelKey(env);
  if (!baseUrl)
    throw new EndpointConfigError(
      'no model endpoint: pass --model-url https://host/v1 or set CONCORD_MODEL_BASE_URL (an OpenAI-compatible endpoint)',
    );
  if (!model) throw new EndpointConfigError('no model name: pass --model NAME or set CONCORD_MODEL_NAME');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new EndpointConfigError('the model endpoint is not a URL: give it as http(s)://host/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EndpointConfigError(`the model endpoint must be http or https, not ${url.protocol}`);
  for (const secret of urlSecrets(baseUrl)) holdSecret(secret);
  return {
    baseUrl,
    model,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs: whole('--model-timeout-ms', flags.modelTimeoutMs, ENDPOINT_DEFAULTS.timeoutMs, 1),
    retries: whole('--model-retries', flags.modelRetries, ENDPOINT_DEFAULTS.retries, 0),
    maxRequestBytes: ENDPOINT_DEFAULTS.maxRequestBytes,
    maxResponseBytes: ENDPOINT_DEFAULTS.maxResponseBytes,
  };
}

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new EndpointConfigError(`${flag} ${text}: expected a whole number of at least ${min}`);
  return value;
}
