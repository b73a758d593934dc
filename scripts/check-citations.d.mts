export interface CitationProblem {
  line: number;
  message: string;
}
export function slug(heading: string): string;
export function checkText(file: string, text: string): CitationProblem[];
export function checkCitations(root: string): (CitationProblem & { file: string })[];
