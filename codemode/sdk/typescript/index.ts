export { renderTypeScriptSdk } from './render.js';
