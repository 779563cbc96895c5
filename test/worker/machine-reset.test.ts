// A Machine object reset (a deploy, a crash) while its daemon stays away hears no close: without asking, its
// rooms, the directory and the members' lists would show the session live forever. A join asks.
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, setupSession, TestViewer, text, waitFor } from "./harness";

describe("a Machine reset while its daemon stays away", () => {
  it("the next viewer sees the session offline, as do the directory and a send; the daemon's return makes it live again", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    a.close();
    await abortAllDurableObjects(); // every object's memory and sockets gone; the daemon does not come back
    const b = await TestViewer.open(sessionId);
    await waitFor(() => b.lastStatus()?.state === "offline", "the joiner sees the machine offline", 10_000);
    await waitFor(async () => (await api(`/api/sessions/${sessionId}`)).body?.session?.status === "offline", "the directory says offline", 10_000);
    expect(await b.op({ op: "message.send", id: "while-away", blocks: text("hello?") })).toMatchObject({ type: "error", code: "MACHINE_OFFLINE" });
    // The daemon returns: live again, for the viewer already there.
    await daemon.connect([{ sessionId, busy: false }]);
    await waitFor(() => b.lastStatus()?.state === "idle", "idle once the daemon is back", 10_000);
    b.close();
  });
});
