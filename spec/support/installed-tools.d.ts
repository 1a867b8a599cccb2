/** The repository's root folder. */
export declare const root: string;
/** The copy of mcp-reflect that tools/nest12 installs (`file:../..`, --install-links). */
export declare const nest12Copy: string;
/** Whether `tools/<name>` has every package of its package-lock.json at the locked version. */
export declare function installedAsLocked(name: string): boolean;
/** Whether the copy in tools/nest12 is the current build: the same package.json and dist/ as this tree. */
export declare function nest12CopyIsCurrent(): boolean;
/** What changed in mcp-reflect's dependencies since tools/nest12/package-lock.json was written, or undefined. */
export declare function nest12LockDrift(): string | undefined;
