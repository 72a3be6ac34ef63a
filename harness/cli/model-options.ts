import { Option } from 'commander';
import { ALLOW_KEY_EXPOSURE } from '../model/key-exposure.js';

/** The live-model flags of `concord record` and `concord gate --live`. The key is read from the environment only. */
export function modelOptions(): Option[] {
  return [
    new Option(
      '--model-url <url>',
      'an OpenAI-compatible endpoint, e.g. https://host/v1 (default: CONCORD_MODEL_BASE_URL)',
    ),
    new Option(
      '--model <name>',
      'the model to ask (default: CONCORD_MODEL_NAME); the key is read from CONCORD_MODEL_API_KEY only',
    ),
    new Option('--model-timeout-ms <n>', 'time allowed for one answer (default 120000)'),
    new Option('--model-retries <n>', 'further attempts after a 429 or 5xx answer, with doubling backoff (default 3)'),
    new Option(
      ALLOW_KEY_EXPOSURE,
      "not as root: run python programs anyway, though they share concord's account and could read the key from /proc",
    ),
  ];
}
