/** Types of install-peers.mjs for the TypeScript benchmarks that import it. */
export function peersCache(): string;
export function peerDir(id: string): string;
export function isInstalled(id: string): boolean;
export function installPeer(id: string): Promise<string>;
