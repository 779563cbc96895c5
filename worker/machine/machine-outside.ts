/** What the Machine tells the rest of Baton — its rooms (status), the D1 directory (online, hello), the members' lists — and its sockets' closing. */
import type { MachineFrame } from "../../shared/tunnel-protocol";
import type { ErrorCode } from "../../shared/viewer-protocol";
import { setMachineHello, setMachineOnline } from "../d1-directory";
import { type Env, roomStub } from "../env";
import { publishMachine } from "../session-feed/feed-publish";
import type { MachineStatus } from "./dispatch-result";
import type { MachineMeta } from "./machine-store";

export async function notifyRooms(env: Env, sessionIds: readonly string[], status: MachineStatus): Promise<void> {
  await Promise.all(
    sessionIds.map((id) =>
      roomStub(env, id)
        .onMachineStatus(status)
        .catch((err: unknown) => console.error("room status notify failed", id, err)),
    ),
  );
}

/** The machine went online or offline: its sessions' rows in the members' live lists show it (issue 26). */
export function publishList(env: Env, machineId: string | null): Promise<void> {
  return machineId ? publishMachine(env, machineId) : Promise.resolve();
}

export async function updateDirectory(env: Env, machineId: string | null, online: boolean, hello: MachineMeta["hello"] | null): Promise<void> {
  if (!machineId) return;
  const now = Date.now();
  const write = hello ? setMachineHello(env.DB, machineId, hello, now) : setMachineOnline(env.DB, machineId, online, now);
  await write.catch((err: unknown) => console.error("directory update failed", err));
}

/** Closes each socket with `code` and `reason`; one already gone is skipped. */
export function closeAll(sockets: readonly WebSocket[], code: number, reason: string): void {
  for (const ws of sockets) {
    try {
      ws.close(code, reason);
    } catch {
      /* gone */
    }
  }
}

/** Standard "try again later": the daemon reconnects with backoff and resends what was not acked. */
const CLOSE_OVERLOADED = 1013;

export function sendFrame(ws: WebSocket, frame: MachineFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    /* closing */
  }
}

/** Closes the tunnel with "try again later": nothing more is taken from it; the daemon reconnects and resends what is unacked. */
export function sendBackLater(ws: WebSocket, code: ErrorCode, why: string): void {
  sendFrame(ws, { type: "error", code, message: `${why}: reconnect and resend unacked events` });
  ws.serializeAttachment({ hello: false });
  closeAll([ws], CLOSE_OVERLOADED, why.slice(0, 100));
}
