/**
 * The oldest CPython concord supports unless a project says otherwise: SDK stubs must compile on it, the
 * identifier rules follow its Unicode, and the default CPython image runs it.
 */
export const PYTHON_FLOOR = '3.9';
