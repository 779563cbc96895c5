import { render, screen } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import type { Row } from "../../../shared/fold";
import { makeOutbox } from "../connection/outbox";
import { Transcript } from "./Transcript";

describe("Transcript", () => {
  it("renders agent markdown sanitised: no script, no handlers, no javascript: links", () => {
    const rows: Row[] = [
      { kind: "agent", id: "a", open: false, text: '**bold** <img src=x onerror="alert(1)"><script>alert(2)</script> [x](javascript:alert(3))' },
      { kind: "user", id: "u", blocks: [{ type: "text", text: "<svg onload=alert(4)>hi</svg>" }], author: "Eve", at: 1 },
    ];
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    const t = screen.getByTestId("transcript");
    expect(t.querySelector("strong")?.textContent).toBe("bold");
    expect(t.querySelector("script")).toBeNull();
    expect(t.querySelector("[onerror],[onload]")).toBeNull();
    expect(t.querySelector('a[href^="javascript"]')).toBeNull();
  });

  it("permission cards show options until resolved, then who answered", () => {
    const rows: Row[] = [
      { kind: "permission", id: "perm:p", title: "Delete file", options: [{ optionId: "y", name: "Allow", kind: "allow_once" }], resolved: { outcome: "selected", optionId: "y", by: "Bo" } },
    ];
    render(() => <Transcript rows={rows} canAct onPermission={() => {}} />);
    expect(screen.getByTestId("permission-card")).toHaveTextContent("Allow — Bo");
    expect(screen.queryByRole("button", { name: "Allow" })).toBeNull();
  });
});

describe("outbox", () => {
  it("keeps unacked sends in order for resend and forgets settled ones", () => {
    const o = makeOutbox();
    o.add({ op: "message.send", rid: "r1", id: "m1", blocks: [{ type: "text", text: "a" }] });
    o.add({ op: "message.send", rid: "r2", id: "m2", blocks: [{ type: "text", text: "b" }] });
    expect(o.resend().map((x) => x.id)).toEqual(["m1", "m2"]);
    o.settle("r1");
    expect(o.resend().map((x) => x.id)).toEqual(["m2"]);
    expect(o.size).toBe(1);
  });
});
