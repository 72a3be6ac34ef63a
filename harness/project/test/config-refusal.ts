import { InputError } from '../../scenario/error.js';
import { parseProjectConfig } from '../config.js';

/**
 * What `concord.config.yml` with `source` is refused for, as `line:column problem`; anything else is a test failure.
 */
export function configRefusal(source: string): string {
  try {
    parseProjectConfig('/p/concord.config.yml', source);
  } catch (caught) {
    if (caught instanceof InputError) return `${caught.line}:${caught.column} ${caught.problem}`;
    throw caught;
  }
  throw new Error('expected an InputError');
}
