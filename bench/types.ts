/** One measured figure; `bench/run.ts` prints it as `bench <name>: <value> <unit> (target <op> <n>) <ok|short>`. */
export interface BenchResult {
  name: string;
  value: number;
  /** `ms`, `x`, `deliveries/s`, a phrase such as `of 24000`, or empty for a plain count. */
  unit: string;
  target: { op: '>=' | '<='; value: number };
}

export type BenchModule = { run(): Promise<BenchResult[]> };
