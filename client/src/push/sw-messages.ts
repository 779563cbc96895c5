/** Messages between a page and the service worker (`client/src/sw.ts`). */
import { z } from "zod";

export const SW_MESSAGE_NOTIFICATION_ACTION = "baton:notification-action";

/**
 * Run a shown notification's tap (`action` "" = the body) as if the person tapped it. A page can already do
 * all of it itself (same origin, same cookies); this lets a test drive the worker's own click path,
 * which no browser API can tap.
 */
export const SwActionRequest = z.object({ type: z.literal(SW_MESSAGE_NOTIFICATION_ACTION), tag: z.string(), action: z.string() });
export type SwActionRequest = z.infer<typeof SwActionRequest>;

export type SwActionReply =
  | { outcome: "ignored" }
  | { outcome: "opened"; url: string }
  | { outcome: "answered" }
  | { outcome: "already_answered"; by: string | null }
  | { outcome: "failed" };
