import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import type { Row } from "../../../shared/fold";
import { prependedRows, Transcript, WINDOW_ROWS } from "./Transcript";

const notice = (i: number): Row => ({ kind: "notice", id: `n${i}`, level: "info", text: `note ${i}` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => notice(from + i));
const rendered = () => screen.queryAllByText(/^note \d+$/).map((el) => el.textContent);

describe("Transcript: older rows from the server (history.page)", () => {
  it("prependedRows tells a page put on top from rows appended or replaced", () => {
    const ends = (rows: Row[]) => ({ first: rows[0]?.id, last: rows.at(-1)?.id, length: rows.length });
    expect(prependedRows(ends(range(40, 100)), range(0, 100))).toBe(40);
    expect(prependedRows(ends(range(40, 100)), range(40, 101))).toBe(0);
    expect(prependedRows(ends(range(40, 100)), range(0, 30))).toBe(0);
    expect(prependedRows(ends([]), range(0, 30))).toBe(0);
  });

  it("at the top of what is held, asks for the previous page, shows it loading, then mounts it above; at the first row says so", async () => {
    const [rows, setRows] = createSignal(range(100, 160));
    const [hasOlder, setHasOlder] = createSignal(true);
    const [loading, setLoading] = createSignal(false);
    let asked = 0;
    let finish!: () => void;
    const onLoadOlder = () => {
      asked++;
      setLoading(true);
      return new Promise<void>((resolve) => {
        finish = () => {
          setRows([...range(60, 100), ...rows()]);
          setHasOlder(false);
          setLoading(false);
          resolve();
        };
      });
    };
    render(() => <Transcript rows={rows()} canAct following={false} hasOlder={hasOlder()} loadingOlder={loading()} onLoadOlder={onLoadOlder} onPermission={() => {}} />);
    expect(rendered()).toHaveLength(WINDOW_ROWS);
    fireEvent.click(screen.getByRole("button", { name: "Load earlier messages" }));
    expect(asked).toBe(1);
    expect(screen.getByTestId("loading-earlier")).toHaveTextContent("Loading earlier messages");
    finish();
    await waitFor(() => expect(rendered()).toHaveLength(WINDOW_ROWS + 40));
    expect(rendered()[0]).toBe("note 60");
    expect(rendered().at(-1)).toBe("note 159");
    expect(screen.getByTestId("session-start")).toHaveTextContent("Beginning of the session");
    expect(screen.queryByTestId("show-earlier")).toBeNull();
  });

  it("a page landing while the reader follows the end is mounted whole, not as a landing of the newest rows", async () => {
    const [rows, setRows] = createSignal(range(100, 160));
    render(() => (
      <Transcript
        rows={rows()}
        canAct
        following
        hasOlder
        onLoadOlder={async () => setRows([...range(60, 100), ...rows()])}
        onPermission={() => {}}
      />
    ));
    await waitFor(() => expect(screen.getByTestId("transcript").getAttribute("aria-busy")).toBe("false"));
    fireEvent.click(screen.getByRole("button", { name: "Load earlier messages" }));
    await waitFor(() => expect(rendered()).toHaveLength(WINDOW_ROWS + 40));
    expect(screen.getByTestId("transcript").getAttribute("aria-busy")).toBe("false");
  });
});

describe("Transcript: a page that does not come", () => {
  it("a failed request (offline) is not retried in a loop; the button asks again", async () => {
    let asked = 0;
    render(() => (
      <Transcript rows={range(100, 160)} canAct following={false} hasOlder onLoadOlder={async () => void asked++} onPermission={() => {}} />
    ));
    fireEvent.click(screen.getByRole("button", { name: "Load earlier messages" }));
    await new Promise((r) => setTimeout(r, 100));
    expect(asked).toBe(1);
    fireEvent.click(screen.getByRole("button", { name: "Load earlier messages" }));
    expect(asked).toBe(2);
  });
});
