/** A workflow command as GitHub's runner parses one line of a step's output. */
interface Command {
  name: string;
  data: string;
}

/** `::name props::data` at the start of the line after its spaces. */
function modern(line: string): Command | undefined {
  const text = line.trimStart();
  if (!text.startsWith('::')) return undefined;
  const end = text.indexOf('::', 2);
  if (end < 0) return undefined;
  return { name: text.slice(2, end).split(' ')[0]!, data: text.slice(end + 2) };
}

/** `##[name props]data` anywhere in the line. */
function legacy(line: string): Command | undefined {
  const start = line.indexOf('##[');
  const end = start < 0 ? -1 : line.indexOf(']', start);
  if (end < 0) return undefined;
  return { name: line.slice(start + 3, end).split(' ')[0]!, data: line.slice(end + 1) };
}

/**
 * What the runner would do with a step's output: the lines it runs as workflow commands, in order, and whether
 * it is still told to read none when the output ends. `::stop-commands::TOKEN` stops it until `::TOKEN::`.
 * Every legacy command counts (the runner takes fewer), so this errs on the side of finding one.
 */
export function workflowCommandsRun(output: string): { ran: string[]; stoppedAtEnd: boolean } {
  const ran: string[] = [];
  let stopToken: string | undefined;
  for (const line of output.split(/\r?\n/)) {
    const command = modern(line) ?? legacy(line);
    if (command === undefined) continue;
    if (stopToken !== undefined) {
      if (command.name.toLowerCase() === stopToken.toLowerCase()) stopToken = undefined;
    } else if (command.name.toLowerCase() === 'stop-commands') {
      stopToken = command.data;
    } else {
      ran.push(line.trimStart());
    }
  }
  return { ran, stoppedAtEnd: stopToken !== undefined };
}
