export { ContainerInterpreter } from './container.js';
export { InterpreterInventory, type InventoryOptions, type MatrixAnswer } from './inventory.js';
export { findInterpreters, type Interpreter, LocalInterpreter, runPythonJson } from './local.js';
export { PyodideInterpreter } from './pyodide.js';
export {
  type CompileOutcome,
  type CompileReport,
  compareVersions,
  type InterpreterKind,
  type PythonInterpreter,
} from './types.js';
