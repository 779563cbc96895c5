import { describe, expect, it } from "vitest";
import { isMarkdownOutput, plainRuns } from "./terminal-plain";
import { terminalRuns } from "./terminal-text";

describe("terminalRuns", () => {
  it("splits SGR colours and decorations into runs of plain text", () => {
    const runs = terminalRuns("ok \u001b[31mred\u001b[0m \u001b[1;32mbold green\u001b[0m\n");
    expect(runs.map((r) => r.text).join("")).toBe("ok red bold green\n");
    expect(runs.find((r) => r.text === "red")).toMatchObject({ fg: "var(--ansi-red)", bold: false });
    expect(runs.find((r) => r.text === "bold green")).toMatchObject({ fg: "var(--ansi-green)", bold: true });
    expect(runs[0]).toMatchObject({ fg: null, bg: null });
  });

  it("bright, 256-colour and true colours; backgrounds", () => {
    const runs = terminalRuns("\u001b[94ma\u001b[0m\u001b[38;5;1mb\u001b[0m\u001b[38;5;208mc\u001b[0m\u001b[38;5;244md\u001b[0m\u001b[38;2;10;20;30me\u001b[0m\u001b[44mf\u001b[0m");
    expect(runs.map((r) => [r.text, r.fg, r.bg])).toEqual([
      ["a", "var(--ansi-bright-blue)", null],
      ["b", "var(--ansi-red)", null],
      ["c", "rgb(255, 135, 0)", null],
      ["d", "rgb(128, 128, 128)", null],
      ["e", "rgb(10, 20, 30)", null],
      ["f", null, "var(--ansi-blue)"],
    ]);
  });

  it("keeps markup as text and drops hyperlinks' escape sequences and stray controls", () => {
    const runs = terminalRuns("<img src=x onerror=alert(1)> \u001b]8;;http://x\u0007link\u001b]8;;\u0007\u0007 done");
    expect(runs.map((r) => r.text).join("")).toBe("<img src=x onerror=alert(1)> link done");
  });

  it("a line redrawn with carriage returns shows its last state", () => {
    expect(terminalRuns("10%\r50%\r100%\nnext\r\n").map((r) => r.text).join("")).toBe("100%\nnext\n");
  });
});

describe("plainRuns (before the colour parser loads)", () => {
  it("the same text without colours: escape sequences, hyperlinks and controls dropped, redraws collapsed", () => {
    const raw = "ok \u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\u0007 <b>\n\u001b[2K10%\r100%\n";
    expect(plainRuns(raw)).toEqual([{ text: "ok red link <b>\n100%\n", fg: null, bg: null, bold: false, dim: false, italic: false, underline: false }]);
    expect(plainRuns(raw)[0]!.text).toBe(terminalRuns(raw).map((r) => r.text).join(""));
    expect(plainRuns("")).toEqual([]);
  });
});

describe("isMarkdownOutput", () => {
  it("is true for fenced output (claude's ```console), false for plain text", () => {
    expect(isMarkdownOutput("```console\n$ ls\na.txt\n```")).toBe(true);
    expect(isMarkdownOutput("a.txt\n* not a list marker\n# not a heading")).toBe(false);
  });
});
