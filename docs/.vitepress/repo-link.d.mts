export declare const REPOSITORY: string;
export declare function repoPath(pageDir: string, href: string): string | undefined;
export declare function repoLink(pageDir: string, href: string): string | undefined;
