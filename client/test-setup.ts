import "@testing-library/jest-dom/vitest";
import { cleanup } from "@solidjs/testing-library";
import { afterEach } from "vitest";
import { loadMarkdown } from "./src/lib/create-markdown";
import { loadTerminalColours } from "./src/lib/create-terminal-runs";

// In the app the markdown renderer and the terminal colour parser load after the first paint; views render
// against loaded ones here (create-markdown.test.ts, terminal-text.test.ts cover the plain text before).
await Promise.all([loadMarkdown(), loadTerminalColours()]);

afterEach(() => cleanup());
