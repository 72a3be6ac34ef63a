import type { JsonValue } from '../runtimes/seam/types.js';

/**
 * An error a tool throws to tell the program why it failed. The program catches it as `ToolCallError`
 * with the same `message`, the tool's name in `toolName`, and this `code` and `data`:
 *
 * ```ts
 * throw new ToolError('the card was declined', { code: 'card_declined', data: { limit: 500 } });
 * ```
 *
 * Any thrown value works the same way: its `message`, its `code` when that is a string or a safe integer
 * (a Node system error's `ENOENT`, an MCP error's number), and its `data` when that is lossless JSON.
 */
export class ToolError<Data extends JsonValue = JsonValue> extends Error {
  readonly code?: string | number;
  readonly data?: Data;

  constructor(message: string, options: { code?: string | number; data?: Data; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    if (options.code !== undefined) this.code = options.code;
    if (options.data !== undefined) this.data = options.data;
  }
}
