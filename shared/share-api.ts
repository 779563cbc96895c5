/** Read-only share links (issue 30 #3): the HTTP shapes shared by the Worker and the client. */
import { z } from "zod";

/** How long a link works; the owner picks one at creation. */
export const ShareExpiry = z.enum(["1h", "1d", "7d", "never"]);
export type ShareExpiry = z.infer<typeof ShareExpiry>;

/** Who may open a link: anyone signed in to this deployment (the default), or anyone holding it (no sign-in). */
export const ShareScope = z.enum(["signed_in", "anyone"]);
export type ShareScope = z.infer<typeof ShareScope>;

export const CreateShareLinkBody = z.object({ expiry: ShareExpiry, scope: ShareScope.default("signed_in") });
export type CreateShareLinkBody = z.input<typeof CreateShareLinkBody>;

/** An active link as the owner's Members panel lists it (the token is never listed: only its hash is stored). */
export const ShareLinkSummary = z.object({
  id: z.string(),
  scope: ShareScope,
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
});
export type ShareLinkSummary = z.infer<typeof ShareLinkSummary>;

export type ShareLinksReply = { links: ShareLinkSummary[] };
/** The one moment the token exists outside the holder's hands: the URL to copy. */
export type CreatedShareLink = ShareLinksReply & { link: ShareLinkSummary; url: string };

/** POST /api/share/open: what a spectator's page learns before it opens the socket. */
export const OpenShareBody = z.object({ token: z.string().min(1).max(256) });
export type OpenedShare = { sessionId: string; title: string; scope: ShareScope; expiresAt: number | null };

/** Why a link does not open (each has a page that says so). */
export const ShareRefusal = { not_found: "not_found", expired: "expired", revoked: "revoked", sign_in_required: "sign_in_required", session_deleted: "session_deleted" } as const;
export type ShareRefusal = (typeof ShareRefusal)[keyof typeof ShareRefusal];
