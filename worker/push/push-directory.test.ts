import { describe, expect, it } from "vitest";
import { DEFAULT_PUSH_EVENTS, eventsFrom } from "./push-directory";

describe("stored event choices", () => {
  it("every kind is on for someone who never chose", () => {
    expect(eventsFrom(null)).toEqual({ permission: true, turn_ended: true, turn_failed: true, machine_offline: true, queued_started: true });
    expect(DEFAULT_PUSH_EVENTS).toEqual(eventsFrom(null));
  });
  it("reads choices over the defaults; unknown keys, wrong types and corrupt rows are ignored", () => {
    expect(eventsFrom(JSON.stringify({ turn_ended: false, bogus: false, permission: "no" }))).toEqual({ ...DEFAULT_PUSH_EVENTS, turn_ended: false });
    expect(eventsFrom("{not json")).toEqual(DEFAULT_PUSH_EVENTS);
    expect(eventsFrom("[1,2]")).toEqual(DEFAULT_PUSH_EVENTS);
  });
});
