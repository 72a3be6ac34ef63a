export { ContainerInterpreter } from './container.js';
export { InterpreterInventory, type InventoryOptions, type MatrixAnswer } from './inventory.js';
export { findInterpreters, LocalInterpreter, runPythonJson, type Interpreter } from './local.js';
export { PyodideInterpreter } from './pyodide.js';
export { compareVersions, type CompileOutcome, type CompileReport, type InterpreterKind, type PythonInterpreter } from './types.js';
