export { renderPythonSdk } from './render.js';
