import { describe, expect, it } from "vitest";
import { appendTail, mergeToolMeta, terminalChunk, terminalExit } from "./terminal-output";

describe("terminal output in _meta", () => {
  it("reads codex's and pi's pieces and the exit", () => {
    expect(terminalChunk({ terminal_output_delta: { terminal_id: "c", data: "a" } })).toEqual({ terminalId: "c", data: "a", truncated: false });
    expect(terminalChunk({ terminal_output: { terminal_id: "p", data: "b" } })).toEqual({ terminalId: "p", data: "b", truncated: false });
    expect(terminalChunk({ terminal_info: { terminal_id: "c" } })).toBeNull();
    expect(terminalChunk("junk")).toBeNull();
    expect(terminalExit({ terminal_exit: { terminal_id: "c", exit_code: 2, signal: null } })).toEqual({ terminalId: "c", exitCode: 2, signal: null });
    expect(terminalExit({ terminal_exit: { terminal_id: "c", exit_code: null, signal: "SIGTERM" } })).toMatchObject({ exitCode: null, signal: "SIGTERM" });
  });

  it("appendTail keeps the end from a line start and says it cut", () => {
    expect(appendTail("ab", "cd", 10)).toEqual({ text: "abcd", cut: false });
    expect(appendTail("line1\nline2\n", "line3\n", 14)).toEqual({ text: "line2\nline3\n", cut: true });
    // One long line: the raw tail.
    expect(appendTail("x".repeat(8), "yy", 4)).toEqual({ text: "xxyy", cut: true });
  });

  it("mergeToolMeta concatenates pieces of one terminal, keeps other keys, never merges two terminals", () => {
    expect(mergeToolMeta({ terminal_info: { terminal_id: "t" }, terminal_output_delta: { terminal_id: "t", data: "a" } }, { terminal_output_delta: { terminal_id: "t", data: "b" } })).toEqual({
      terminal_info: { terminal_id: "t" },
      terminal_output_delta: { terminal_id: "t", data: "ab" },
    });
    expect(mergeToolMeta({ terminal_output: { terminal_id: "t", data: "a" } }, { terminal_exit: { terminal_id: "t", exit_code: 0 } })).toEqual({
      terminal_output: { terminal_id: "t", data: "a" },
      terminal_exit: { terminal_id: "t", exit_code: 0 },
    });
    expect(mergeToolMeta({ terminal_output: { terminal_id: "a", data: "1" } }, { terminal_output: { terminal_id: "b", data: "2" } })).toEqual({ terminal_output: { terminal_id: "b", data: "2" } });
    expect(mergeToolMeta(undefined, { x: 1 })).toEqual({ x: 1 });
  });
});
