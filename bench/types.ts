/** One measured figure; `bench/run.ts` prints it as `bench <name>: <value> <unit> (target <op> <n>) <ok|short>`. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target: { op: '>=' | '<='; value: number };
}

export type BenchModule = { run(): Promise<BenchResult[]> };
