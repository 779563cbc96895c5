/** Tuning constants shared by worker, daemon and client. Each has a one-line why. */

/** A single prompt's text budget (text, links, embedded files; characters); large pastes fit, a runaway paste loop does not. */
export const MAX_PROMPT_BYTES = 128 * 1024;
/** One image as the browser re-encodes it (base64 characters, ≈ 190 KB of JPEG): a 1568 px photo or screenshot fits. */
export const MAX_IMAGE_DATA_CHARS = 256 * 1024;
/** All images of one prompt (base64 characters): two full-size images or several screenshots. With the text budget's
 *  worst case (3 UTF-8 bytes a character) a prompt stays under 1 MiB, so it and a merged flush fit a tunnel frame. */
export const MAX_PROMPT_IMAGE_CHARS = 2 * MAX_IMAGE_DATA_CHARS;
/** Images sent at their full resolution are downscaled by the models anyway (Claude's guidance: a long side ≤ 1568 px);
 *  more pixels only cost bytes. */
export const MAX_IMAGE_LONG_SIDE_PX = 1568;
/** A viewer frame larger than this is refused before parsing: bounds memory per message; the largest prompt (text
 *  and images) plus its envelope fits. */
export const MAX_VIEWER_FRAME_BYTES = MAX_PROMPT_BYTES + MAX_PROMPT_IMAGE_CHARS + 64 * 1024;
/** Blocks per prompt: a few text/image/file blocks is normal; hundreds is abuse. */
export const MAX_PROMPT_BLOCKS = 32;
/** Tunnel frames carry agent output (tool diffs can be big) — larger than viewer frames. */
export const MAX_TUNNEL_FRAME_BYTES = 1024 * 1024;
/** The original design parks one message; users asked for more, capped so the chip stack stays usable. */
export const DEFAULT_QUEUE_DEPTH = 1;
export const MAX_QUEUE_DEPTH = 8;
/** All queued prompts together (UTF-8 of their blocks): bounds queue_state frames and a merged flush, whose
 *  prompt command must fit the daemon's frame limit (8 × MAX_PROMPT_BYTES of multi-byte text would not). Room for
 *  one largest message with images (≤ 3 × MAX_PROMPT_BYTES + MAX_PROMPT_IMAGE_CHARS = 896 KB). */
export const MAX_QUEUE_BYTES = 928 * 1024;
/** Settled client message ids remembered for idempotent retries (outbox resends after a drop). */
export const SETTLED_RING_SIZE = 512;
/** Per-machine concurrent active turns (the daemon's CPU / API budget). */
export const DEFAULT_MACHINE_BUDGET = 4;
/** A viewer more than this many events behind gets the current window instead of its missed events (bounds the work of compacting them). */
export const REPLAY_TAIL_MAX = 2000;
/** Rows a join sends (the transcript mounts this many): what is on screen, not the whole session. */
export const JOIN_WINDOW_ROWS = 60;
/** Rows per `history.page` the transcript asks for as the reader scrolls up: a few screens. */
export const HISTORY_PAGE_ROWS = 40;
/** Largest `history.page` a viewer may ask for: bounds the room's work and the reply per op. */
export const MAX_HISTORY_PAGE_ROWS = 200;
/** A join window or history page is cut into socket messages of at most this size (the platform allows 1 MiB). */
export const SNAPSHOT_PAGE_BYTES = 512 * 1024;
/** Token bucket per viewer connection: burst and refill per second. Typing is ~1 op/s; 20 is generous. */
export const RATE_BURST = 40;
export const RATE_PER_SECOND = 20;
/** A viewer frame costs one token plus one per this many characters, charged before parsing: parse work
 *  per socket is bounded (~640 KB/s sustained) and the largest allowed frame (a prompt with images) still fits in one burst. */
export const RATE_CHARS_PER_TOKEN = 32 * 1024;
/** An over-limit socket gets one RATE_LIMITED frame per window, silence for the rest of it. */
export const RATE_NOTICE_WINDOW_MS = 1000;
/** Over the limit in this many consecutive windows (seconds of sustained flooding): closed with 1008. */
export const RATE_STRIKES_TO_CLOSE = 10;
/** Ids are client-minted (uuid-ish); bound their size so they cannot be used to bloat storage. */
export const MAX_ID_LENGTH = 128;
/** Events per tunnel batch frame: amortises per-message cost while staying under the frame limit. */
export const MAX_BATCH_EVENTS = 256;
/**
 * Daemon frames the Machine holds but has not handed to rooms yet. A daemon keeps ≤ 2 frames unacked,
 * so only a flooding peer gets here: its tunnel is closed (1013) and it resends after reconnecting.
 */
export const MAX_TUNNEL_BACKLOG_BYTES = 8 * MAX_TUNNEL_FRAME_BYTES;
/**
 * A tool's terminal output kept per terminal (the tail; older output is cut): a long build log stays
 * readable and a runaway `yes` cannot grow a viewer's memory or a compacted snapshot without bound.
 */
export const MAX_TERMINAL_OUTPUT_CHARS = 64 * 1024;

/** A viewer pings its live socket this often (the room answers without waking; the time is the proof of life). */
export const VIEWER_PING_EVERY_MS = 25_000;

/** Longest `history.search` query: a phrase to find, not a document (a longer one is refused with a clear error). */
export const MAX_SEARCH_QUERY_CHARS = 200;
/** Results one `history.search` answer holds at most: a list a person scans; older ones come with `before`. */
export const MAX_SEARCH_RESULTS = 50;
/** Compacted rows one `history.search` op reads at most (one synchronous slice of a few ms): the room serves
 *  live events between slices; the client asks again from `continueBefore` for the rest. */
export const SEARCH_SLICE_ROWS = 4000;
/** Characters of context shown around a match in a result's snippet (each side). */
export const SEARCH_SNIPPET_CONTEXT = 60;
/** Largest `reply` frame on the tunnel (an ask's answer): a page of session titles, not a transcript. */
export const MAX_ASK_REPLY_BYTES = 256 * 1024;
/** Sessions in one page of an agent's `session/list` relayed to the browser (the rest: the cursor). */
export const MAX_LISTED_AGENT_SESSIONS = 100;
/** How long the Worker waits for a daemon's answer to a list / delete (a short-lived agent process starts first). */
export const ASK_TIMEOUT_MS = 30_000;
/** How long the Worker waits for a `files.list` answer: the daemon gives up at 5 s; a picker waiting longer is no help. */
export const FILE_LIST_ASK_TIMEOUT_MS = 8_000;
/** A fork's copy of the original room's rows (the new room starts with them): bounded like a few history pages. */
export const MAX_FORK_COPY_BYTES = 4 * 1024 * 1024;
