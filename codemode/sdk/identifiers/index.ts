export { isDunderName, isPrivateName, PythonNameRules, pythonNameRules } from './rules.js';
export { DEFAULT_PYTHON_FLOOR, PYTHON_KEYWORDS, SUPPORTED_PYTHON_VERSIONS, unicodeTableOf } from './versions.js';
