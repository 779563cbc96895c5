// The room's event log in SQLite: runs written as one row, read back event by event at any seq.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ROOM_MIGRATIONS, RoomStore } from "../../worker/session-room/room-store";
import { migrate } from "../../worker/sql-migrations";
import type { SessionEvent } from "../../shared/viewer-protocol";

const note = (text: string): SessionEvent => ({ kind: "notice", level: "info", text });
const texts = (events: { event: SessionEvent }[]) => events.map(({ event }) => (event.kind === "notice" ? event.text : "?"));

function inFreshRoom<T>(fn: (sql: SqlStorage) => T | Promise<T>): Promise<T> {
  const stub = env.SESSION_ROOM.get(env.SESSION_ROOM.idFromName(`room-log-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => fn(state.storage.sql));
}

function write(store: RoomStore, events: SessionEvent[], run: boolean): number[] {
  if (run) store.beginRun();
  const seqs = events.map((e) => store.append(e.kind, JSON.stringify(e)));
  if (run) store.endRun();
  return seqs;
}

describe("room log", () => {
  it("single rows and run rows read back as one gapless sequence from any seq, also after an eviction", async () => {
    await inFreshRoom((sql) => {
      const store = new RoomStore(sql);
      const names = Array.from({ length: 12 }, (_, i) => `e${i + 1}`);
      expect(write(store, [note("e1")], false)).toEqual([1]);
      expect(write(store, ["e2", "e3", "e4"].map(note), true)).toEqual([2, 3, 4]);
      expect(write(store, [note("e5")], true)).toEqual([5]);
      expect(write(store, [], true)).toEqual([]);
      expect(write(store, ["e6", "e7", "e8", "e9", "e10"].map(note), true)).toEqual([6, 7, 8, 9, 10]);
      expect(write(store, ["e11", "e12"].map(note), true)).toEqual([11, 12]);
      // 12 events in 5 rows: the runs of 3, 5 and 2 are one row each.
      expect(sql.exec<{ c: number }>("SELECT COUNT(*) AS c FROM events").one().c).toBe(5);

      const all = [...store.allEvents()];
      expect(all.map((e) => e.seq)).toEqual(names.map((_, i) => i + 1));
      expect(texts(all)).toEqual(names);
      for (let after = 0; after <= 12; after++) {
        const tail = store.eventsAfter(after);
        expect(tail.map((e) => e.seq)).toEqual(names.slice(after).map((_, i) => after + i + 1));
        expect(texts(tail)).toEqual(names.slice(after));
        expect(texts(store.eventsAfter(after, 2))).toEqual(names.slice(after, after + 2));
      }
      expect(store.eventsAfter(40)).toEqual([]);

      // A new store over the same SQLite (what the DO builds after eviction) continues the sequence.
      const again = new RoomStore(sql);
      expect(again.headSeq()).toBe(12);
      expect(write(again, ["e13", "e14"].map(note), true)).toEqual([13, 14]);
      expect(texts(again.eventsAfter(11))).toEqual(["e12", "e13", "e14"]);
    });
  });

  it("a log written before run rows (one row per event) reads the same and continues after the migration", async () => {
    await inFreshRoom((sql) => {
      for (const t of ["events", "queue", "meta", "settled", "permissions", "requests", "room_state", "compacted", "_migrations"]) sql.exec(`DROP TABLE IF EXISTS ${t}`);
      migrate(sql, ROOM_MIGRATIONS.slice(0, 1));
      for (let i = 1; i <= 3; i++) sql.exec("INSERT INTO events (kind, body, at) VALUES (?, ?, ?)", "notice", JSON.stringify(note(`old${i}`)), 0);

      const store = new RoomStore(sql);
      expect(store.headSeq()).toBe(3);
      expect(write(store, ["new4", "new5"].map(note), true)).toEqual([4, 5]);
      expect(texts([...store.allEvents()])).toEqual(["old1", "old2", "old3", "new4", "new5"]);
      expect(texts(store.eventsAfter(2))).toEqual(["old3", "new4", "new5"]);
    });
  });
});
