export const SUBJECT_MAX: number;
export const CHECKED_MAX: number;
export function subjectProblem(subject: string): string | null;
export function checkedCommits(root: string): { hash: string; subject: string; body: string }[] | null;
export function checkCommits(root: string): {
  skipped: boolean;
  checked: number;
  problems: string[];
  warnings: string[];
};
