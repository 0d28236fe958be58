export declare function devOutputFilter(): { keep(line: string): boolean; ready(answered: number): void };
