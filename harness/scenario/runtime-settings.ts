import { LIMIT_BOUNDS } from '../../runtimes/seam/options.js';
import type { Shape } from './shape.js';

/**
 * The runtime settings a scenario's `runtime:` takes, and that `concord.config.yml` sets for every scenario that sets
 * none itself; each an integer within the bounds every runtime checks (`LIMIT_BOUNDS`).
 */
export const RUNTIME_SETTINGS = {
  timeoutMs: 'The time budget of one program, in milliseconds.',
  bridgeBytes: 'The bytes of JSON one tool call may carry each way (default 16 MiB).',
  bridgeDepth: 'How deep a value one tool call carries may nest (default 500 levels).',
} as const;

export type RuntimeSetting = keyof typeof RUNTIME_SETTINGS;

export const RUNTIME_SETTING_NAMES = Object.keys(RUNTIME_SETTINGS) as RuntimeSetting[];

/** The fields of the runtime settings, for a file's shape. */
export function runtimeSettingFields(): Record<RuntimeSetting, { shape: Shape }> {
  const field = (name: RuntimeSetting) => ({
    shape: {
      kind: 'number',
      integer: true,
      min: LIMIT_BOUNDS[name][0],
      max: LIMIT_BOUNDS[name][1],
      description: RUNTIME_SETTINGS[name],
    } satisfies Shape,
  });
  return Object.fromEntries(RUNTIME_SETTING_NAMES.map((name) => [name, field(name)])) as Record<
    RuntimeSetting,
    { shape: Shape }
  >;
}
