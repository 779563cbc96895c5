/** How a request was authenticated (account-scope.ts and identity.ts both read it). */
export const AuthMode = { dev: "dev", access: "access", builtin: "builtin" } as const;
export type AuthMode = (typeof AuthMode)[keyof typeof AuthMode];
