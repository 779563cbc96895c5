/**
 * Where a spectator's page opens its socket, and how the share token travels: as the second WebSocket
 * subprotocol (`Sec-WebSocket-Protocol: baton-share, <token>`), never in a URL — URLs end up in logs.
 * Its own module, without zod: the spectator page imports it.
 */
export const SHARE_SOCKET_PATH = "/api/share/ws";
/** The subprotocol the Worker answers with; the token rides beside it. */
export const SHARE_PROTOCOL = "baton-share";
/** The spectator's page: the token is in the fragment, which browsers never send to a server. */
export const SHARE_PAGE_PATH = "/share";
export const shareUrl = (origin: string, token: string) => `${origin}${SHARE_PAGE_PATH}#${token}`;
