import type { BindingNamespace, JsonValue } from '../../seam/types.js';

/** Fixture tools for the CPython tests: `echo` and `exotic-name` return their arguments, `fail` rejects. */
export function fixtureTools(): BindingNamespace[] {
  const echo = (args: JsonValue): Promise<JsonValue> => Promise.resolve(args);
  return [
    {
      name: 'tools',
      functions: new Map([
        ['echo', echo],
        ['exotic-name', echo],
        ['fail', () => Promise.reject(new Error('the tool failed on purpose'))],
      ]),
      errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
    },
  ];
}

/**
 * Prints one line, makes three calls and returns `[peers, answers]`: `peers` are the named Unix sockets the
 * run's own process is connected to, i.e. the run channel when the run took it ([] when it is relayed).
 */
export const PEERS_PROGRAM = [
  'import os, socket, stat',
  'peers = []',
  'for fd in range(256):',
  '    try:',
  '        if stat.S_ISSOCK(os.fstat(fd).st_mode):',
  '            probe = socket.socket(fileno=fd)',
  '            peers.append(probe.getpeername())',
  '            probe.detach()',
  '    except OSError:',
  '        pass',
  'print("calling")',
  'answers = [await tools.echo({"i": i}) for i in range(3)]',
  'return [[peer for peer in peers if peer], answers]',
].join('\n');
export const PEERS_PROGRAM_ANSWERS = [{ i: 0 }, { i: 1 }, { i: 2 }];
