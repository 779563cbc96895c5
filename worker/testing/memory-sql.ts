/**
 * An in-memory SQLite behind the `SqlDb` interface, for unit tests of the stores and the rules over them
 * in plain Node (the `unit` project), without workerd. Node's built-in `node:sqlite`; test-only.
 */
import { DatabaseSync } from "node:sqlite";
import type { SqlCursor, SqlDb, SqlValue } from "../sql-migrations";

type Binding = null | number | bigint | string | Uint8Array;

function binding(v: unknown): Binding {
  if (v === null || typeof v === "number" || typeof v === "bigint" || typeof v === "string" || v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  throw new TypeError(`cannot bind ${typeof v} to SQL`);
}

function cursor<T>(rows: T[]): SqlCursor<T> {
  return {
    toArray: () => rows,
    one: () => {
      if (rows.length !== 1) throw new Error(`expected exactly one row, got ${rows.length}`);
      return rows[0]!;
    },
    [Symbol.iterator]: () => rows[Symbol.iterator](),
  };
}

export function memorySql(): SqlDb {
  const db = new DatabaseSync(":memory:");
  return {
    exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): SqlCursor<T> {
      // Like the DO's exec, one call may hold several statements (migrations): those take no bindings.
      if (!bindings.length && query.split(";").filter((q) => q.trim()).length > 1) {
        db.exec(query);
        return cursor<T>([]);
      }
      const rows = db.prepare(query).all(...bindings.map(binding));
      // node:sqlite returns null-prototype objects of SQLite values; copy them into plain rows.
      return cursor(rows.map((r) => ({ ...r }) as T));
    },
  };
}
