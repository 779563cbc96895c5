import Brain from "lucide-solid/icons/brain";
import ChevronRight from "lucide-solid/icons/chevron-right";
import Circle from "lucide-solid/icons/circle";
import CircleAlert from "lucide-solid/icons/circle-alert";
import CircleCheck from "lucide-solid/icons/circle-check";
import CircleDot from "lucide-solid/icons/circle-dot";
import CircleX from "lucide-solid/icons/circle-x";
import FilePen from "lucide-solid/icons/file-pen";
import FileText from "lucide-solid/icons/file-text";
import Globe from "lucide-solid/icons/globe";
import Info from "lucide-solid/icons/info";
import ListChecks from "lucide-solid/icons/list-checks";
import LoaderCircle from "lucide-solid/icons/loader-circle";
import Move from "lucide-solid/icons/move";
import Search from "lucide-solid/icons/search";
import ShieldAlert from "lucide-solid/icons/shield-alert";
import Terminal from "lucide-solid/icons/terminal";
import Trash2 from "lucide-solid/icons/trash";
import Wrench from "lucide-solid/icons/wrench";
import { createEffect, createMemo, createRenderEffect, createSignal, For, Match, on, Show, Suspense, Switch } from "solid-js";
import { Dynamic } from "solid-js/web";
import type { AgentRow, PermissionRow, PlanRow, TerminalOutput, ThoughtRow, ToolContent, ToolRow, UserRow } from "../../../shared/fold";
import { createMarkdown } from "../lib/create-markdown";
import { patchBlocks } from "../lib/patch-blocks";
import { createTerminalRuns } from "../lib/create-terminal-runs";
import { isMarkdownOutput } from "../lib/terminal-plain";
import { clockTime } from "../lib/format";

/** Diffs are a minority of rows: their code loads with the first one shown. */
const DiffView = lazyChunk(() => import("./DiffView").then((m) => ({ default: m.DiffView })));
import { type Attachment, attachmentLabel } from "../session/composer-logic";
import { mentions } from "../session/mentions-on-demand";
import { LazyImageThumb } from "./LazyImageThumb";
import { lazyChunk } from "../lib/load-chunk";

/** Plain text with `backtick` spans as inline code — text nodes only, never HTML. */
export function InlineCode(props: { text: string }) {
  const parts = () => props.text.split(/(`[^`]+`)/g).filter(Boolean);
  return (
    <For each={parts()}>{(p) => (p.length > 2 && p.startsWith("`") && p.endsWith("`") ? <code>{p.slice(1, -1)}</code> : <>{p}</>)}</For>
  );
}

export function UserMessage(props: { row: UserRow; mine: boolean }) {
  const text = () =>
    props.row.blocks
      .filter((b) => b.type === "text")
      .map((b) => (b.type === "text" ? b.text : ""))
      .join("");
  // A link's chip in the text (its code loads on demand; until then the text reads plain), not again as a pill.
  const linked = props.row.blocks.some((b) => b.type === "resource_link");
  if (linked) void mentions.load().catch(() => {});
  const extras = () => props.row.blocks.filter((b) => b.type !== "text" && !(linked && mentions.current()?.isChip(text(), b)));
  return (
    <div class="row row-user" classList={{ mine: props.mine }} data-testid="row-user">
      <div class="user-meta">
        <span class="user-name">{props.mine ? "You" : props.row.author.name}</span>
        <span class="dot-sep" aria-hidden="true">·</span>
        <time dateTime={new Date(props.row.at).toISOString()}>{clockTime(props.row.at)}</time>
        <Show when={props.row.steered}>
          {(how) => (
            <>
              <span class="dot-sep" aria-hidden="true">·</span>
              <span
                class="user-steered"
                data-testid="row-steered"
                title={how() === "injected" ? "Sent into the running turn by steering" : "Steered; the agent started a new turn for it"}
              >
                {how() === "injected" ? "↪ steered mid-turn" : "↪ steered · new turn"}
              </span>
            </>
          )}
        </Show>
      </div>
      <div class="bubble">
        {/* User text renders as text, never as HTML. */}
        <Show when={text()}>
          <div class="user-text">{mentions.current()?.MentionText({ text: text(), blocks: props.row.blocks }) ?? text()}</div>
        </Show>
        <Show when={extras().length}>
          <div class="bubble-attachments">
            <For each={extras()}>
              {(b, i) =>
                b.type === "image" ? (
                  <LazyImageThumb mimeType={b.mimeType} data={b.data} label={`Image ${i() + 1}`} class="bubble-image" />
                ) : (
                  <span class="attachment-pill">{attachmentLabel(b as Attachment)}</span>
                )
              }
            </For>
          </div>
        </Show>
      </div>
    </div>
  );
}

/** `growing`: the text is still arriving (Transcript's isGrowing); its end mounts the text afresh, which the log announces once. */
export function AgentMessage(props: { row: AgentRow; growing?: boolean }) {
  const html = createMarkdown(
    () => props.row.text,
    () => props.row.streaming,
  );
  const body = () => <div class="md" ref={(el) => createRenderEffect(() => patchBlocks(el, html()))} />;
  return (
    <div class="row row-agent" classList={{ streaming: props.row.streaming }} data-testid="row-agent">
      <Show when={props.growing} fallback={body()}>
        {body()}
      </Show>
    </div>
  );
}

export function Thought(props: { row: ThoughtRow }) {
  const [open, setOpen] = createSignal(false);
  const html = createMarkdown(
    () => (open() ? props.row.text : ""),
    () => props.row.streaming,
  );
  const preview = () => props.row.text.replace(/\s+/g, " ").trim().slice(0, 140);
  return (
    <div class="row row-thought" classList={{ open: open(), streaming: props.row.streaming }} data-testid="row-thought">
      <button class="thought-toggle" aria-expanded={open()} onClick={() => setOpen((o) => !o)}>
        <Brain size={16} aria-hidden="true" />
        <span class="thought-label">{props.row.streaming ? "Thinking…" : "Thought"}</span>
        <Show when={!open()}>
          <span class="thought-preview">{preview()}</span>
        </Show>
        <ChevronRight size={16} class="chev" aria-hidden="true" />
      </button>
      <Show when={open()}>
        <div class="thought-body md" innerHTML={html()} />
      </Show>
    </div>
  );
}

const TOOL_ICON: Record<string, typeof Wrench> = {
  read: FileText,
  edit: FilePen,
  delete: Trash2,
  move: Move,
  search: Search,
  execute: Terminal,
  think: Brain,
  fetch: Globe,
};
const KIND_LABEL: Record<string, string> = {
  read: "Read",
  edit: "Edit",
  delete: "Delete",
  move: "Move",
  search: "Search",
  execute: "Run",
  think: "Think",
  fetch: "Fetch",
  switch_mode: "Mode",
  other: "Tool",
};

/**
 * The kind label is left out when the title already starts with it: "Run `rm -rf build/`" reads (and is
 * named, for a screen reader) once, not "RunRun rm -rf build/".
 */
export function kindIsRedundant(kindLabel: string, title: string): boolean {
  return title.replace(/`/g, "").trim().toLowerCase().startsWith(kindLabel.toLowerCase());
}

export function toolStatus(row: Pick<ToolRow, "status" | "live">): { key: string; label: string } {
  if (row.status === "completed") return { key: "completed", label: "Done" };
  if (row.status === "failed") return { key: "failed", label: "Failed" };
  if (!row.live) return { key: "interrupted", label: "Interrupted" };
  if (row.status === "in_progress") return { key: "in_progress", label: "Running" };
  return { key: "pending", label: "Pending" };
}

function StatusIcon(props: { status: string }) {
  return (
    <Switch fallback={<Circle size={15} aria-hidden="true" />}>
      <Match when={props.status === "completed"}>
        <CircleCheck size={15} aria-hidden="true" />
      </Match>
      <Match when={props.status === "failed" || props.status === "interrupted"}>
        <CircleX size={15} aria-hidden="true" />
      </Match>
      <Match when={props.status === "in_progress"}>
        <LoaderCircle size={15} class="spin" aria-hidden="true" />
      </Match>
    </Switch>
  );
}

/** Text output: markdown when the agent wrote it as such (a fenced block), verbatim otherwise. */
function TextOutput(props: { text: string; streaming: boolean }) {
  return (
    <Show when={isMarkdownOutput(props.text)} fallback={<pre class="tool-output">{props.text}</pre>}>
      {(_) => {
        const html = createMarkdown(
          () => props.text,
          () => props.streaming,
        );
        return <div class="tool-md md" innerHTML={html()} />;
      }}
    </Show>
  );
}

function exitText(exit: NonNullable<TerminalOutput["exit"]>): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  return exit.exitCode === null ? "exited" : `exit ${exit.exitCode}`;
}

/** A terminal's output: ANSI colours as styled text runs (text nodes only), kept scrolled to the newest line. */
export function TerminalView(props: { terminal: TerminalOutput | undefined; terminalId: string }) {
  let box: HTMLPreElement | undefined;
  let stick = true;
  const runs = createTerminalRuns(() => props.terminal?.output ?? "");
  createEffect(
    on(runs, () => {
      if (box && stick) box.scrollTop = box.scrollHeight;
    }),
  );
  return (
    <div class="terminal">
      <Show when={props.terminal?.truncated}>
        <div class="terminal-cut" data-testid="terminal-cut">
          Earlier output cut — showing the end
        </div>
      </Show>
      <pre
        class="terminal-output"
        data-testid="terminal-output"
        aria-label={`Output of terminal ${props.terminalId}`}
        tabIndex={0}
        ref={box}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
        }}
      >
        <For each={runs()}>
          {(r) => (
            <span
              style={{
                color: r.fg ?? undefined,
                "background-color": r.bg ?? undefined,
                "font-weight": r.bold ? "700" : undefined,
                opacity: r.dim ? "0.7" : undefined,
                "font-style": r.italic ? "italic" : undefined,
                "text-decoration": r.underline ? "underline" : undefined,
              }}
            >
              {r.text}
            </span>
          )}
        </For>
      </pre>
      <Show when={props.terminal?.exit}>
        {(exit) => (
          <div class="terminal-exit" classList={{ failed: exit().exitCode !== 0 }} data-testid="terminal-exit">
            {exitText(exit())}
          </div>
        )}
      </Show>
    </div>
  );
}

function ToolBody(props: { item: ToolContent; terminals: TerminalOutput[]; streaming: boolean }) {
  return (
    <Switch>
      <Match when={props.item.type === "text" && props.item}>{(c) => <TextOutput text={c().text} streaming={props.streaming} />}</Match>
      <Match when={props.item.type === "diff" && props.item}>
        {(d) => (
          <Suspense>
            <DiffView path={d().path} oldText={d().oldText} newText={d().newText} />
          </Suspense>
        )}
      </Match>
      <Match when={props.item.type === "terminal" && props.item}>
        {(t) => <TerminalView terminalId={t().terminalId} terminal={props.terminals.find((x) => x.terminalId === t().terminalId)} />}
      </Match>
    </Switch>
  );
}

/** Lines a tool body shows collapsed-by-default above (the transcript stays scannable). */
const OPEN_MAX_LINES = 12;

export function ToolCall(props: { row: ToolRow }) {
  const [toggled, setToggled] = createSignal<boolean | null>(null);
  const status = () => toolStatus(props.row);
  const terminals = () => props.row.terminals ?? [];
  /** Terminals with output that no content item names (shown after the content). */
  const unnamed = () => terminals().filter((t) => !props.row.content.some((c) => c.type === "terminal" && c.terminalId === t.terminalId));
  const hasBody = () => props.row.content.length > 0 || unnamed().length > 0;
  const lineCount = () =>
    props.row.content.reduce((n, c) => n + (c.type === "text" ? c.text.split("\n").length : c.type === "diff" ? 8 : 1), 0) +
    terminals().reduce((n, t) => n + t.output.split("\n").length, 0);
  const running = () => props.row.live && status().key === "in_progress" && terminals().length > 0;
  const kindLabel = () => KIND_LABEL[props.row.toolKind] ?? props.row.toolKind;
  const open = () => toggled() ?? (hasBody() && (status().key === "failed" || running() || lineCount() <= OPEN_MAX_LINES));
  return (
    <div class={`row row-tool tool-${status().key}`} classList={{ open: open() }} data-testid="row-tool" data-status={status().key}>
      <button class="tool-head" aria-expanded={open()} onClick={() => setToggled(!open())} disabled={!hasBody()}>
        <span class="tool-icon" aria-hidden="true">
          <Dynamic component={TOOL_ICON[props.row.toolKind] ?? Wrench} size={16} />
        </span>
        <span class="tool-text">
          <span class="tool-title">
            <Show when={!kindIsRedundant(kindLabel(), props.row.title)}>
              <span class="tool-kind" data-testid="tool-kind">
                {kindLabel()}
              </span>{" "}
            </Show>
            <InlineCode text={props.row.title} />
          </span>
          <Show when={props.row.locations.length}>
            {" "}
            <span class="tool-loc">{props.row.locations.join(", ")}</span>
          </Show>
        </span>{" "}
        <span class={`tool-status st-${status().key}`} data-testid="tool-status">
          <StatusIcon status={status().key} />
          <span>{status().label}</span>
        </span>
      </button>
      <Show when={open() && hasBody()}>
        <div class="tool-body">
          <For each={props.row.content}>{(item) => <ToolBody item={item} terminals={terminals()} streaming={props.row.live} />}</For>
          <For each={unnamed()}>{(t) => <TerminalView terminalId={t.terminalId} terminal={t} />}</For>
        </div>
      </Show>
    </div>
  );
}

export function Plan(props: { row: PlanRow }) {
  const done = () => props.row.entries.filter((e) => e.status === "completed").length;
  return (
    <div class="row row-plan" data-testid="row-plan">
      <div class="card-label">
        <ListChecks size={15} aria-hidden="true" />
        <span>Plan</span>
        <span class="plan-progress">
          {done()}/{props.row.entries.length}
        </span>
      </div>
      <ol class="plan-entries">
        <For each={props.row.entries}>
          {(e) => (
            <li class={`plan-entry plan-${e.status}`}>
              <span class="plan-mark" aria-hidden="true">
                <Switch fallback={<Circle size={15} />}>
                  <Match when={e.status === "completed"}>
                    <CircleCheck size={15} />
                  </Match>
                  <Match when={e.status === "in_progress"}>
                    <CircleDot size={15} />
                  </Match>
                </Switch>
              </span>
              <span class="plan-text">{e.content}</span>
              <span class="sr-only">({e.status.replace("_", " ")})</span>
            </li>
          )}
        </For>
      </ol>
    </div>
  );
}

export function PermissionCard(props: { row: PermissionRow; canAct: boolean; onRespond: (requestId: string, optionId: string) => void }) {
  const [chosen, setChosen] = createSignal<string | null>(null);
  const resolvedText = () => {
    const r = props.row.resolved;
    if (!r) return "";
    if (r.outcome === "cancelled") return "Cancelled — the turn ended before an answer";
    const name = props.row.options.find((o) => o.optionId === r.optionId)?.name ?? r.optionId ?? "Answered";
    return r.by ? `${name} — ${r.by.name}` : name;
  };
  /** The content worth showing on the card (a terminal id alone says nothing before it runs). */
  const subjectContent = () => props.row.subject.content.filter((c) => c.type !== "terminal");
  /** claude titles a command with the command itself: shown once. */
  const titleRepeatsCommand = () => props.row.title.replace(/`/g, "").trim() === props.row.subject.command?.trim();
  const hasSubject = () => !!props.row.subject.command || props.row.subject.paths.length > 0 || subjectContent().length > 0;
  const allowed = () => {
    const r = props.row.resolved;
    return r?.outcome === "selected" && (props.row.options.find((o) => o.optionId === r.optionId)?.kind ?? "").startsWith("allow");
  };
  return (
    <div class="row permission-card" classList={{ resolved: !!props.row.resolved, allowed: allowed() }} data-testid="permission-card">
      <div class="card-label">
        <ShieldAlert size={15} aria-hidden="true" />
        <span>{props.row.resolved ? "Permission" : "Permission needed"}</span>
      </div>
      <Show when={props.row.subject.command}>
        {(cmd) => (
          <pre class="perm-command" data-testid="permission-command" aria-label="Command">
            <span class="perm-prompt" aria-hidden="true">
              ${" "}
            </span>
            {cmd()}
          </pre>
        )}
      </Show>
      <For each={props.row.subject.paths}>
        {(p) => (
          <div class="perm-path" data-testid="permission-path">
            {p}
          </div>
        )}
      </For>
      <Show when={subjectContent().length}>
        <div class="perm-content">
          <For each={subjectContent()}>{(item) => <ToolBody item={item} terminals={[]} streaming={false} />}</For>
        </div>
      </Show>
      <Show when={!titleRepeatsCommand()}>
        <div class="perm-title" classList={{ secondary: hasSubject() }}>
          <InlineCode text={props.row.title} />
        </div>
      </Show>
      <Show
        when={props.row.resolved}
        fallback={
          <>
            <div class="perm-options">
              <For each={props.row.options}>
                {(o) => (
                  <button
                    class={`btn ${o.kind.startsWith("allow") ? "btn-primary" : "btn-quiet"}`}
                    data-testid="permission-option"
                    disabled={!props.canAct || chosen() !== null}
                    onClick={() => {
                      setChosen(o.optionId);
                      props.onRespond(props.row.requestId, o.optionId);
                    }}
                  >
                    {o.name}
                  </button>
                )}
              </For>
            </div>
            <Show when={!props.canAct}>
              <p class="perm-hint">Waiting for someone who can approve.</p>
            </Show>
          </>
        }
      >
        <div class="perm-resolved" data-testid="permission-resolved">
          {allowed() ? <CircleCheck size={15} aria-hidden="true" /> : <CircleX size={15} aria-hidden="true" />}
          <span>{resolvedText()}</span>
        </div>
      </Show>
    </div>
  );
}

export function ErrorRowView(props: { message: string; code: string | null }) {
  return (
    <div class="row row-error" role="alert" data-testid="row-error">
      <CircleAlert size={16} aria-hidden="true" />
      <div>
        <div class="error-title">The turn failed</div>
        <div class="error-message">{props.message}</div>
      </div>
    </div>
  );
}

export function NoticeRowView(props: { level: "info" | "warn"; text: string }) {
  return (
    <div class={`row row-notice notice-${props.level}`} data-testid="row-notice">
      <Info size={14} aria-hidden="true" />
      <span>{props.text}</span>
    </div>
  );
}

const STOP_TEXT: Record<string, string> = {
  cancelled: "Stopped",
  refusal: "The agent refused to continue",
  max_tokens: "Stopped: the agent hit its token limit",
  max_turn_requests: "Stopped: too many model requests in one turn",
};

export function TurnEnd(props: { stopReason: string }) {
  return (
    <div class="row row-turn-end" data-testid="row-turn-end">
      <span>{STOP_TEXT[props.stopReason] ?? `Ended: ${props.stopReason}`}</span>
    </div>
  );
}
