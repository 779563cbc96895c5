/** The machine-status transition as a table: (state, status) → (state, effects). */
import { describe, expect, it } from "vitest";
import { CONFIG, entry, ready, reserved, running, step, type World } from "../testing/room-fixtures";
import type { MachineStatus } from "../machine/dispatch-result";
import { onMachineStatus, wakeAgent } from "./on-machine-status";
import type { RoomState } from "./room-state";

const online = (live: string[] = ["s1"], restarted = false): MachineStatus => ({ online: true, liveSessionIds: live, restarted });
const OFFLINE: MachineStatus = { online: false, liveSessionIds: [], restarted: false };

const WATCHED = { watched: true };
const NOT_WATCHED = { watched: false };

describe("on the machine's status", () => {
  it.each<[string, RoomState, MachineStatus, World, Partial<RoomState>, string[]]>([
    ["offline while idle: status only", ready(), OFFLINE, WATCHED, { machineOnline: false, statusKey: "offline:" }, ["session_status", "directory.status"]],
    ["offline mid-turn: the turn's followers hear", running(), OFFLINE, WATCHED, { machineOnline: false, statusKey: "offline:t1" }, ["session_status", "directory.status", "push"]],
    ["offline again: nothing new", ready({ machineOnline: false, statusKey: "offline:" }), OFFLINE, WATCHED, {}, []],
    ["back, the session live: recover, then flush", ready({ machineOnline: false, statusKey: "offline:" }), online(), WATCHED, { machineOnline: true, statusKey: "idle:" }, ["session_status", "directory.status", "recover", "flush"]],
    [
      "back after a restart mid-turn, someone watching: the turn is lost, the agent reopens with session/load",
      running(),
      online([], true),
      WATCHED,
      { turn: { phase: "idle" }, agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["turn_error", "push", "session_status", "directory.status", "dispatch:session.open"],
    ],
    [
      "back after a restart mid-turn, no one watching, nothing queued: the turn is lost, the agent waits for someone (dormant)",
      running(),
      online([], true),
      NOT_WATCHED,
      { turn: { phase: "idle" }, agent: { phase: "dormant", resumeFrom: "a1", startKind: null }, statusKey: "idle:" },
      ["turn_error", "push", "session_status", "directory.status"],
    ],
    ["a restart while idle and unwatched: dormant, nothing asked of the daemon", ready(), online([], true), NOT_WATCHED, { agent: { phase: "dormant", resumeFrom: "a1", startKind: null } }, []],
    ["the daemon lost the session (no restart), unwatched: dormant too", ready(), online([]), NOT_WATCHED, { agent: { phase: "dormant", resumeFrom: "a1", startKind: null } }, []],
    [
      "a restart while an import's first open was pending, unwatched: dormant, the import kept for its open",
      ready({ agent: { phase: "opening", resumeFrom: "x1", startKind: "import" }, statusKey: "starting:" }),
      online([], true),
      NOT_WATCHED,
      { agent: { phase: "dormant", resumeFrom: "x1", startKind: "import" }, statusKey: "idle:" },
      ["session_status", "directory.status"],
    ],
    [
      "a restart during a reservation, unwatched: its messages go back to the head of the queue, which opens the agent",
      reserved([entry("m1")], { queue: [entry("q")] }),
      online([], true),
      NOT_WATCHED,
      { turn: { phase: "idle" }, queue: [entry("m1"), entry("q")], agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["settle", "queue_state", "turn_error", "push", "session_status", "directory.status", "dispatch:session.open"],
    ],
    [
      "a restart with a message queued, unwatched: the agent opens to run it",
      ready({ queue: [entry("q")] }),
      online([], true),
      NOT_WATCHED,
      { agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" },
      ["session_status", "directory.status", "dispatch:session.open"],
    ],
    [
      "a restart while the agent failed: it stays failed and is opened again",
      ready({ agent: { phase: "failed", message: "x", authMethods: null, resumeFrom: "a0", startKind: null }, statusKey: "error:" }),
      online([], true),
      NOT_WATCHED,
      {},
      ["dispatch:session.open"],
    ],
    [
      "a dormant agent's daemon restarts again: still dormant, the same session to load",
      ready({ agent: { phase: "dormant", resumeFrom: "a1", startKind: null } }),
      online([], true),
      NOT_WATCHED,
      {},
      [],
    ],
  ])("%s", (_name, before, status, world, changed, kinds) => {
    const r = step(before, (out) => onMachineStatus(out, status), world);
    expect(r.state).toEqual({ ...before, ...changed });
    expect(r.kinds).toEqual(kinds);
  });

  it("the reopen loads the agent's session and restores what the user chose", () => {
    const r = step(ready({ agentConfig: { ...CONFIG, modes: { currentModeId: "ask", availableModes: [] } } }), (out) => onMachineStatus(out, online([], true)), WATCHED);
    expect(r.effects.at(-1)).toMatchObject({ t: "dispatch", command: { t: "session.open", agentSessionId: "a1", restore: { modeId: "ask" } }, about: { kind: "open" } });
  });
});

describe("waking a dormant agent (someone joined)", () => {
  const dormant = (patch: Partial<RoomState> = {}) => ready({ agent: { phase: "dormant", resumeFrom: "a1", startKind: null }, agentConfig: { ...CONFIG, modes: { currentModeId: "ask", availableModes: [] } }, ...patch });

  it("opens it as the restart would have: session/load, what the user chose restored, status starting", () => {
    const r = step(dormant(), wakeAgent);
    expect(r.state.agent).toEqual({ phase: "opening", resumeFrom: "a1", startKind: null });
    expect(r.kinds).toEqual(["session_status", "directory.status", "dispatch:session.open"]);
    expect(r.effects.at(-1)).toMatchObject({ t: "dispatch", command: { t: "session.open", agentSessionId: "a1", restore: { modeId: "ask" } }, about: { kind: "open" } });
  });

  it("an import not opened yet opens as an import (its history relayed)", () => {
    const r = step(dormant({ agent: { phase: "dormant", resumeFrom: "x1", startKind: "import" } }), wakeAgent);
    expect(r.effects.at(-1)).toMatchObject({ t: "dispatch", command: { t: "session.open", agentSessionId: "x1", restore: null, history: "relay" } });
  });

  it.each<[string, RoomState]>([
    ["an agent already open", ready()],
    ["an agent opening", ready({ agent: { phase: "opening", resumeFrom: "a1", startKind: null }, statusKey: "starting:" })],
    ["a failed agent", ready({ agent: { phase: "failed", message: "x", authMethods: null, resumeFrom: "a1", startKind: null }, statusKey: "error:" })],
    ["a dormant agent whose machine is offline (it opens when the daemon is back and someone is here)", dormant({ machineOnline: false, statusKey: "offline:" })],
  ])("leaves %s as it is", (_name, before) => {
    const r = step(before, wakeAgent);
    expect(r.state).toEqual(before);
    expect(r.effects).toEqual([]);
  });
});
