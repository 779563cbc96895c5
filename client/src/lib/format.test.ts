/** Relative times in the reader's language (issue 32 #10: "min ago" was hard-coded beside localised dates). */
import { describe, expect, it } from "vitest";
import { timeAgo } from "./format";

const NOW = Date.UTC(2026, 11, 4, 12, 0, 0);
const ago = (seconds: number) => NOW - seconds * 1000;
const rtf = (locale: string) => new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
const date = (locale: string) => new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" });

describe("timeAgo", () => {
  it("speaks the reader's language at every step", () => {
    const en = (s: number) => timeAgo(ago(s), NOW, rtf("en"), date("en"));
    const de = (s: number) => timeAgo(ago(s), NOW, rtf("de"), date("de"));
    expect([en(10), en(120), en(3 * 3600), en(86_400), en(3 * 86_400), en(30 * 86_400)]).toEqual([
      "now",
      "2 min. ago",
      "3 hr. ago",
      "yesterday",
      "3 days ago",
      "Nov 4",
    ]);
    expect([de(10), de(120), de(86_400), de(30 * 86_400)]).toEqual(["jetzt", "vor 2 Min.", "gestern", "4. Nov."]);
  });

  it("never says '0 min': under a minute but past 45 s is one minute", () => {
    expect(timeAgo(ago(50), NOW, rtf("en"))).toBe("1 min. ago");
  });
});
