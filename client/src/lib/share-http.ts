/**
 * Read-only share links over HTTP (issue 30 #3; shapes in shared/share-api.ts): the owner's side, and what a
 * spectator's page asks first. Apart from lib/api.ts, which every page loads: only the panels that use it do.
 */
import type { CreatedShareLink, CreateShareLinkBody, OpenedShare, ShareLinksReply } from "../../../shared/share-api";
import { call } from "./api";

const shareLinksPath = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/share-links`;

export const shareApi = {
  list: (sessionId: string) => call<ShareLinksReply>(shareLinksPath(sessionId)).then((r) => r.links),
  create: (sessionId: string, body: CreateShareLinkBody) => call<CreatedShareLink>(shareLinksPath(sessionId), { method: "POST", body: JSON.stringify(body) }),
  revoke: (sessionId: string, linkId: string) =>
    call<ShareLinksReply>(`${shareLinksPath(sessionId)}/${encodeURIComponent(linkId)}`, { method: "DELETE" }).then((r) => r.links),
  open: (token: string) => call<OpenedShare>("/api/share/open", { method: "POST", body: JSON.stringify({ token }) }),
};
