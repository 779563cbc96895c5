import { describe, expect, it } from "vitest";
import { fileSeconds, slowestLines } from "./slowest-files-reporter";

const mod = (file: string, project: string, ms: { env?: number; collect?: number; tests: number }) => ({
  relativeModuleId: file,
  project: { name: project },
  diagnostic: () => ({ environmentSetupDuration: ms.env ?? 0, prepareDuration: 0, setupDuration: 0, collectDuration: ms.collect ?? 0, duration: ms.tests }),
});

describe("slowest files", () => {
  it("a file's seconds count its environment, import and tests", () => {
    expect(fileSeconds(mod("a.test.ts", "unit", { env: 500, collect: 1500, tests: 3000 }))).toBe(5);
  });

  it("lists the slowest first, at most ten, as '<seconds>s <project> <file>'", () => {
    const mods = Array.from({ length: 12 }, (_, i) => mod(`f${i}.test.ts`, i % 2 ? "e2e" : "unit", { tests: (i + 1) * 1000 }));
    const lines = slowestLines(mods);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^\s*12\.0s e2e f11\.test\.ts$/);
    expect(lines[9]).toMatch(/^\s*3\.0s unit f2\.test\.ts$/);
  });
});
