/**
 * Unacknowledged `message.send` ops, keyed by their client-minted message id, oldest first. Resent
 * after every `ready` until the room acks or refuses them (the room is idempotent by id), so nothing
 * typed is lost across a drop — or across a reload, when a storage is given. Plain (`make*`).
 */
import type { ClientOp } from "../../../shared/viewer-protocol";

export type SendOp = Extract<ClientOp, { op: "message.send" }>;
export type OutboxStorage = { load(): SendOp[]; save(ops: SendOp[]): void };

export function makeOutbox(storage?: OutboxStorage) {
  const pending = new Map<string, SendOp>();
  for (const op of safeLoad(storage)) pending.set(op.id, op);
  const persist = () => storage?.save([...pending.values()]);
  return {
    add(op: SendOp): void {
      pending.set(op.id, op);
      persist();
    },
    /** Forgets the send answered under `rid`; returns it (or undefined when not ours). */
    settle(rid: string): SendOp | undefined {
      for (const [id, op] of pending)
        if (op.rid === rid) {
          pending.delete(id);
          persist();
          return op;
        }
      return undefined;
    },
    has(rid: string): boolean {
      for (const op of pending.values()) if (op.rid === rid) return true;
      return false;
    },
    /** What to (re)send on a fresh connection, oldest first. */
    list(): SendOp[] {
      return [...pending.values()];
    },
    get size() {
      return pending.size;
    },
  };
}
export type Outbox = ReturnType<typeof makeOutbox>;

function safeLoad(storage?: OutboxStorage): SendOp[] {
  try {
    const ops = storage?.load() ?? [];
    return Array.isArray(ops) ? ops.filter((o) => o && o.op === "message.send" && typeof o.id === "string" && typeof o.rid === "string") : [];
  } catch {
    return [];
  }
}

/** localStorage-backed outbox storage for one session (best effort: private mode may refuse). */
export function localOutboxStorage(sessionId: string): OutboxStorage {
  const key = `baton:outbox:${sessionId}`;
  return {
    load: () => JSON.parse(localStorage.getItem(key) ?? "[]") as SendOp[],
    save: (ops) => {
      try {
        if (ops.length) localStorage.setItem(key, JSON.stringify(ops));
        else localStorage.removeItem(key);
      } catch {
        /* storage full or unavailable: the in-memory outbox still covers drops */
      }
    },
  };
}
