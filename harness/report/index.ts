export { renderReport, type ReportInput, type ReportInterpreter, type ReportPair } from './markdown.js';
export { concordFolder, reportPath, junitTarget, writeReport } from './write.js';
