/** The machine-status transition as a table: (state, status) → (state, effects). */
import { describe, expect, it } from "vitest";
import { CONFIG, entry, ready, reserved, running, step } from "../testing/room-fixtures";
import type { MachineStatus } from "../machine/dispatch-result";
import { onMachineStatus } from "./on-machine-status";
import type { RoomState } from "./room-state";

const online = (live: string[] = ["s1"], restarted = false): MachineStatus => ({ online: true, liveSessionIds: live, restarted });
const OFFLINE: MachineStatus = { online: false, liveSessionIds: [], restarted: false };

describe("on the machine's status", () => {
  it.each<[string, RoomState, MachineStatus, Partial<RoomState>, string[]]>([
    ["offline while idle: status only", ready(), OFFLINE, { machineOnline: false, statusKey: "offline:" }, ["session_status", "directory.status"]],
    ["offline mid-turn: the turn's followers hear", running(), OFFLINE, { machineOnline: false, statusKey: "offline:t1" }, ["session_status", "directory.status", "push"]],
    ["offline again: nothing new", ready({ machineOnline: false, statusKey: "offline:" }), OFFLINE, {}, []],
    ["back, the session live: recover, then flush", ready({ machineOnline: false, statusKey: "offline:" }), online(), { machineOnline: true, statusKey: "idle:" }, ["session_status", "directory.status", "recover", "flush"]],
    [
      "back after a restart mid-turn: the turn is lost, the agent reopens with session/load",
      running(),
      online([], true),
      { turn: { phase: "idle" }, agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["turn_error", "push", "session_status", "directory.status", "dispatch:session.open"],
    ],
    [
      "a restart during a reservation: its messages go back to the head of the queue",
      reserved([entry("m1")], { queue: [entry("q")] }),
      online([], true),
      { turn: { phase: "idle" }, queue: [entry("m1"), entry("q")], agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["settle", "queue_state", "turn_error", "push", "session_status", "directory.status", "dispatch:session.open"],
    ],
    [
      "a restart while the agent failed: it stays failed and is opened again",
      ready({ agent: { phase: "failed", message: "x", authMethods: null, resumeFrom: "a0", startKind: null }, statusKey: "error:" }),
      online([], true),
      {},
      ["dispatch:session.open"],
    ],
  ])("%s", (_name, before, status, changed, kinds) => {
    const r = step(before, (out) => onMachineStatus(out, status));
    expect(r.state).toEqual({ ...before, ...changed });
    expect(r.kinds).toEqual(kinds);
  });

  it("the reopen loads the agent's session and restores what the user chose", () => {
    const r = step(ready({ agentConfig: { ...CONFIG, modes: { currentModeId: "ask", availableModes: [] } } }), (out) => onMachineStatus(out, online([], true)));
    expect(r.effects.at(-1)).toMatchObject({ t: "dispatch", command: { t: "session.open", agentSessionId: "a1", restore: { modeId: "ask" } }, about: { kind: "open" } });
  });
});
