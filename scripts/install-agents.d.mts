/** Types of install-agents.mjs for the TypeScript tests that import it. */
export function agentsCache(): string;
export function agentDir(id: string): string;
export function isInstalled(id: string): boolean;
export function installAgent(id: string): Promise<string>;
export function resolveIds(list: readonly string[]): string[];
export function installPinned(dir: string, packages: Record<string, string>, label: string): Promise<string>;
