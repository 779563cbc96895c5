/**
 * The header's search button; the panel (search + "Export as Markdown") loads on the first press and
 * stays mounted, hidden, between openings. Choosing a result closes the panel once its row is in view.
 */
import SearchIcon from "lucide-solid/icons/search";
import { createSignal, Show } from "solid-js";
import type { SearchHit } from "../../../shared/viewer-protocol";
import type { Ask } from "../session/search-logic";
import { lazyChunk } from "../lib/load-chunk";

const SearchPanel = lazyChunk(() => import("./SearchPanel").then((m) => ({ default: m.SearchPanel })));

type Props = {
  sessionId: string;
  ask: Ask;
  /** Pages the transcript to the hit's row and shows it; false when it could not be loaded. */
  reveal: (hit: SearchHit) => Promise<boolean>;
  /** false: no "Export as Markdown" (a share link's spectator: the export is for members). */
  exportable?: boolean;
};

export function SessionSearch(props: Props) {
  const [open, setOpen] = createSignal(false);
  const [loaded, setLoaded] = createSignal(false);
  let button!: HTMLButtonElement;
  const close = () => {
    setOpen(false);
    button.focus();
  };
  return (
    <div class="search-anchor">
      <button
        ref={button}
        class="icon-btn"
        aria-label="Search this session"
        title="Search this session"
        aria-expanded={open()}
        aria-haspopup="dialog"
        data-testid="search-button"
        onClick={() => {
          setLoaded(true);
          setOpen((o) => !o);
        }}
      >
        <SearchIcon size={18} />
      </button>
      <Show when={loaded()}>
        <SearchPanel
          open={open()}
          onClose={close}
          ask={props.ask}
          exportHref={props.exportable === false ? null : `/api/sessions/${encodeURIComponent(props.sessionId)}/export.md`}
          onChoose={async (hit) => {
            const ok = await props.reveal(hit);
            // The row has the focus now (the transcript moved it there): the panel steps aside.
            if (ok) setOpen(false);
            return ok;
          }}
        />
      </Show>
    </div>
  );
}
