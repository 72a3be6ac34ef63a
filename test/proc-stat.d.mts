export interface ProcessCpuSeconds {
  user: number;
  system: number;
  childrenUser: number;
  childrenSystem: number;
}

export function processCpuSeconds(): ProcessCpuSeconds | undefined;
