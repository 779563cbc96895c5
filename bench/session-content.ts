/**
 * The session content the side-by-side benchmarks put into Baton and into its peers (HAPI), turn for
 * turn the same text. A turn is one agent answer in markdown (~0.8 KB, every turn's words differ so
 * compression sees real text, not one string repeated). Baton gets it as `agent_message_chunk` events
 * (several per answer, one messageId), HAPI as one agent message (it buffers an ACP segment into one).
 * No user prompts: Baton only takes those from a viewer (a round trip per turn — too slow to fill
 * 10,000 turns), so neither side has them.
 */

const WORDS = ["room", "viewer", "queue", "turn", "agent", "chunk", "socket", "replay", "snapshot", "window", "page", "commit", "daemon", "tunnel", "prompt", "tool", "diff", "patch", "test", "build"];

/** Deterministic word soup for turn `t` (a tiny LCG: same text on both sides, different per turn). */
function words(t: number, n: number): string {
  let x = (t * 2654435761 + 12345) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[(x >>> 16) % WORDS.length]!);
  }
  return out.join(" ");
}

/** The agent's answer in turn `t` (~0.8 KB of markdown). */
export function turnAnswer(t: number): string {
  return [
    `### Step ${t}`,
    `Here is what I found in \`src/step-${t}.ts\`: ${words(t, 40)}.`,
    `- first, ${words(t + 1, 9)}\n- then ${words(t + 2, 9)}\n- finally ${words(t + 3, 7)}`,
    "```ts\n" + `const step${t} = await run(${t}, "${words(t + 4, 3)}");\nexpect(step${t}.ok).toBe(true);\n` + "```",
    `That keeps ${words(t + 5, 30)}.`,
  ].join("\n\n");
}

/** Splits an answer into `n` chunks as an agent streams it (on word boundaries where it can). */
export function chunksOf(text: string, n: number): string[] {
  const out: string[] = [];
  const size = Math.ceil(text.length / n);
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;
