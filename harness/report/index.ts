export { renderReport, type ReportInput, type ReportInterpreter, type ReportPair } from './markdown.js';
export { concordFolder, reportPath, writeJunit, writeReport } from './write.js';
