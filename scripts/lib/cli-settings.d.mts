export declare const DEFAULT_BASE_URL: string;
export declare function adminConnection(
  flags: { baseUrl?: string; adminToken?: string },
  env: Record<string, string | undefined>,
  devVars?: Record<string, string | undefined>,
): { baseUrl: string; token: string | undefined };
export declare function demoKeysToIssue(
  works: { api_key?: boolean; read_key?: boolean },
  label?: string,
): { field: "api_key" | "read_key"; name: string; scope: "read" | "read_write" }[];
export declare function extractErrorMessage(error: { code: string; message: string }, allowPrivate: boolean): string;
export declare function baseUrlProblem(baseUrl: string): string | null;
