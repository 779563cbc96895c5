/** Read-only share links as people read them (issue 30 #3): choices, scope and expiry labels, refusal pages. */
import type { ShareExpiry, ShareScope } from "../../../shared/share-api";

export const EXPIRY_CHOICES: { value: ShareExpiry; label: string }[] = [
  { value: "1h", label: "1 hour" },
  { value: "1d", label: "1 day" },
  { value: "7d", label: "7 days" },
  { value: "never", label: "Never" },
];

export const SCOPE_CHOICES: { value: ShareScope; label: string }[] = [
  { value: "signed_in", label: "People signed in here" },
  { value: "anyone", label: "Anyone with the link" },
];

export const scopeLabel = (scope: ShareScope): string => (scope === "anyone" ? "Anyone with the link" : "People signed in here");

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "Expires in 59 min", "Expires in 23 h", "Expires in 6 days", "Never expires". */
export function expiryLabel(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return "Never expires";
  const left = expiresAt - now;
  if (left <= 0) return "Expired";
  if (left < HOUR) return `Expires in ${Math.max(1, Math.ceil(left / MINUTE))} min`;
  if (left < DAY) return `Expires in ${Math.ceil(left / HOUR)} h`;
  const days = Math.ceil(left / DAY);
  return `Expires in ${days} ${days === 1 ? "day" : "days"}`;
}

/** The spectator page's heading when a link does not open (or stops), by the server's error code. */
export function refusalHeading(code: string): string {
  switch (code) {
    case "SHARE_REVOKED":
      return "This link was revoked";
    case "SHARE_EXPIRED":
      return "This link has expired";
    case "SHARE_SIGN_IN_REQUIRED":
      return "Sign in to follow this session";
    case "SHARE_SESSION_DELETED":
      return "This session was deleted";
    case "SHARE_NOT_FOUND":
      return "This link is not valid";
    case "NETWORK":
      return "Cannot reach Baton";
    default:
      return "This link does not open";
  }
}
