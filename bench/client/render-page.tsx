/**
 * The client render benchmark's page: the real session store (socket → fold → store sync) feeding the
 * real Transcript inside the session view's scroller with stick-to-bottom, styled by the app's CSS.
 * Only the chrome around it (header, Sender, queue) is left out. The bench server plays the room.
 */
import { createSignal } from "solid-js";
import { render } from "solid-js/web";
import "../../client/src/styles.css";
import { createFollow } from "../../client/src/session/create-follow";
import { createSessionStore } from "../../client/src/session/create-session-store";
import { Transcript } from "../../client/src/views/Transcript";

function BenchSession() {
  const { state } = createSessionStore("bench");
  const [scroller, setScroller] = createSignal<HTMLElement>();
  const [content, setContent] = createSignal<HTMLElement>();
  const follow = createFollow(scroller, content);
  (window as unknown as { benchState: typeof state }).benchState = state;
  return (
    <div class="session">
      <main class="scroll" ref={setScroller}>
        <div ref={setContent}>
          <Transcript rows={state.rows} viewerId={state.viewer?.id} canAct={true} working={state.turnActive} following={follow.following()} onPermission={() => {}} />
        </div>
      </main>
    </div>
  );
}

render(() => <BenchSession />, document.getElementById("root")!);
