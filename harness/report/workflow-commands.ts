import { randomBytes } from 'node:crypto';
import { writeSync } from 'node:fs';
import { onGithubActions } from './annotations.js';

/** The token that resumes the runner's reading of commands; set while it is told to read none. */
let resumeToken: string | undefined;

const freshToken = () => randomBytes(16).toString('hex');

/**
 * GitHub's runner takes any line of a step's output that starts with `::` (after its spaces), or that holds
 * `##[` anywhere, as a workflow command. concord prints text it did not write: snapshot lines in a diff, a
 * persona, a tool's description or error, a program's logs. One such line would act on the job:
 * `::add-mask::FAILED` hides the verdict, `::error …` forges an annotation, `::stop-commands::` silences
 * concord's own. So on GitHub Actions the runner is told to read no command before concord prints anything,
 * concord's own annotations go out in a window it opens and closes (`printWorkflowCommands`), and reading
 * resumes when the process exits, for whatever the step runs after concord.
 */
export function holdWorkflowCommands(env: NodeJS.ProcessEnv = process.env): void {
  if (!onGithubActions(env) || resumeToken !== undefined) return;
  resumeToken = freshToken();
  writeSync(1, `::stop-commands::${resumeToken}\n`);
  process.on('exit', () => {
    if (resumeToken !== undefined) writeSync(1, `::${resumeToken}::\n`);
    resumeToken = undefined;
  });
}

/** Prints concord's own workflow commands where the runner reads them, and holds it again after them. */
export function printWorkflowCommands(lines: readonly string[], out: (line: string) => void): void {
  const held = resumeToken !== undefined && lines.length > 0;
  if (held) out(`::${resumeToken}::`);
  for (const line of lines) out(line);
  if (held) {
    resumeToken = freshToken();
    out(`::stop-commands::${resumeToken}`);
  }
}
