export { renderReport, type ReportInput, type ReportInterpreter, type ReportPair } from './markdown.js';
export { reportPath, writeReport } from './write.js';
