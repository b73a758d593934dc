/** One measured figure; `bench/run.ts` prints it as `bench <name>: <value> <unit> (target <op> <n>) <ok|short>`. */
export interface BenchResult {
  name: string;
  value: number;
  /** `ms`, `x`, `deliveries/s`, a phrase such as `of 24000`, or empty for a plain count. */
  unit: string;
  target: { op: '>=' | '<='; value: number };
  /** Printed after the verdict, `; <detail>`: the rounds behind a figure, or why it could not be measured. */
  detail?: string;
}

/** A figure a module promises, before it is measured: what `bench/run.ts` prints as NaN when the module cannot run. */
export type BenchFigure = Omit<BenchResult, 'value' | 'detail'>;

export type BenchModule = {
  run(): Promise<BenchResult[]>;
  /** The figures `run` gives; without them a module that cannot run prints one line under its own name. */
  figures?: readonly BenchFigure[];
};
