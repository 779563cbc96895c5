/**
 * Prints the slowest test files of a run ("slowest files:", then "<seconds>s <project> <file>"), beside the
 * default reporter (npm test lists it first, so vitest's own summary, "Tests N passed", stays the last block).
 */
import type { ModuleDiagnostic, Reporter, TestModule } from "vitest/node";

/** How many files the list shows. */
const SHOWN = 10;

/** What the list reads of a finished file (a TestModule has it). */
type Timed = {
  relativeModuleId: string;
  project: { name: string };
  diagnostic(): Pick<ModuleDiagnostic, "environmentSetupDuration" | "prepareDuration" | "setupDuration" | "collectDuration" | "duration">;
};

/** A file's own time: its environment, set-up, import and every test and hook in it. */
export function fileSeconds(m: Pick<Timed, "diagnostic">): number {
  const d = m.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration) / 1000;
}

export function slowestLines(modules: ReadonlyArray<Timed>, shown = SHOWN): string[] {
  return modules
    .map((m) => ({ s: fileSeconds(m), project: m.project.name, file: m.relativeModuleId }))
    .sort((a, b) => b.s - a.s)
    .slice(0, shown)
    .map(({ s, project, file }) => `${s.toFixed(1).padStart(6)}s ${project} ${file}`);
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    process.stdout.write(`\nslowest files:\n${slowestLines(modules).join("\n")}\n`);
  }
}
