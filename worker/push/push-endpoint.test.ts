import { describe, expect, it } from "vitest";
import { pushTarget } from "./push-endpoint";

describe("push endpoints the Worker posts to", () => {
  it("https anywhere", () => {
    const e = "https://fcm.googleapis.com/fcm/send/abc";
    expect(pushTarget(e, false)).toEqual({ audienceOf: e, postTo: e });
  });
  it("http only to a loopback host, and only on a local stack", () => {
    expect(pushTarget("http://localhost:8090/notify/x", true)).toEqual({ audienceOf: "http://localhost:8090/notify/x", postTo: "http://localhost:8090/notify/x" });
    expect(pushTarget("http://localhost:8090/notify/x", false)).toBeNull();
    expect(pushTarget("http://push.example.com/x", true)).toBeNull();
    expect(pushTarget("ftp://localhost/x", true)).toBeNull();
    expect(pushTarget("not a url", true)).toBeNull();
  });
});
