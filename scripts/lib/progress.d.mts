export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}
export declare function progress(
  label: string,
  total: number | undefined,
  options?: { json?: boolean; stream?: ProgressStream; now?: () => number },
): { tick(n?: number): void; set(done: number): void; end(): void };
