import type { BindingNamespace, JsonValue } from '../seam/types.js';

/** `tools.echo` answers its arguments; `tools.fail` rejects. */
export function fixtureTools(): BindingNamespace[] {
  const functions = new Map<string, (args: JsonValue) => Promise<JsonValue>>([
    ['echo', async (args) => args],
    [
      'fail',
      async () => {
        throw new Error('fixture failure');
      },
    ],
  ]);
  return [{ name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } }];
}
