/** Types of install-clients.mjs for the TypeScript tests that import it. */
export function clientsCache(): string;
export function clientDir(id: string): string;
export function installClient(id: string): Promise<string>;
