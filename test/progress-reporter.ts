/**
 * One line per finished test file, for the vitest runs npm test starts side by side (scripts/test.mjs):
 * "✓ <project> <file> (<n> tests) <seconds>s", and for a failed file the failed tests' names. The full report
 * (errors, console output, the summary) is printed once, by the merge of their blob reports.
 */
import type { Reporter, TestModule } from "vitest/node";
import { fileSeconds } from "./slowest-files-reporter";

export default class ProgressReporter implements Reporter {
  onTestModuleEnd(m: TestModule): void {
    const tests = [...m.children.allTests()];
    const failed = tests.filter((t) => t.result().state === "failed");
    const mark = m.state() === "failed" || failed.length ? "×" : "✓";
    const lines = [`${mark} ${m.project.name} ${m.relativeModuleId} (${tests.length} tests) ${fileSeconds(m).toFixed(1)}s`];
    for (const t of failed) lines.push(`    × ${t.fullName}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
