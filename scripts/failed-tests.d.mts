export interface VitestJsonReport {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { status: string; title: string; fullName?: string; failureMessages?: string[] }[];
  }[];
}
export function namesOfFailed(report: VitestJsonReport, label: string, root: string): string[];
