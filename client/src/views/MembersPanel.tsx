import Users from "lucide-solid/icons/users";
import X from "lucide-solid/icons/x";
import { createResource, createSignal, For, Show, Suspense } from "solid-js";
import { createPopover } from "../lib/create-popover";
import { PopoverButton } from "./PopoverButton";
import type { Member } from "../../../shared/api";
import { api, type GrantableRole } from "../lib/api";
import { sentence } from "../lib/format";
import { toast } from "../lib/toasts";
import { ShareLinks } from "./ShareLinks";
import "../team.css";

const ROLE_HELP: Record<Member["role"], string> = {
  owner: "Owner",
  member: "Can send, queue, approve",
  viewer: "Read-only",
};

/** Who has access to the session; the owner adds people by email, changes roles, removes them. */
export function MembersPanel(props: { sessionId: string; role: Member["role"] | null; selfId?: string }) {
  const pop = createPopover("below-button");
  const open = pop.open;
  const [members, { mutate, refetch }] = createResource(
    () => (open() ? props.sessionId : null),
    (id) => api.members(id).then((r) => r.members),
  );
  const [email, setEmail] = createSignal("");
  const [role, setRole] = createSignal<GrantableRole>("member");
  const [busy, setBusy] = createSignal(false);
  const isOwner = () => props.role === "owner";

  const act = async (what: () => Promise<Member[]>) => {
    setBusy(true);
    try {
      mutate(await what());
      return true;
    } catch (err) {
      toast(sentence((err as Error).message || "That did not work"), "error");
      void refetch();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (e: Event) => {
    e.preventDefault();
    const address = email().trim();
    if (!address) return;
    if (await act(() => api.addMember(props.sessionId, address, role()))) {
      setEmail("");
      toast(`${address} can now ${role() === "viewer" ? "follow" : "use"} this session`);
    }
  };

  return (
    <PopoverButton label="Members" testId="members" panelClass="members-panel" pop={pop} icon={<Users size={18} />}>
      {/* Its own boundary: the list loading must not suspend the header (that would take the open panel out of the page, which closes it). */}
      <Suspense fallback={<p class="settings-help">Loading…</p>}>
        <div class="settings-title">People in this session</div>
        <Show when={!members.loading || members()} fallback={<p class="settings-help">Loading…</p>}>
          <ul class="member-list">
            <For each={members() ?? []}>
              {(m) => (
                <li class="member" data-testid="member-row">
                  <span class="member-who">
                    <span class="settings-name">
                      {m.name}
                      {m.userId === props.selfId ? " (you)" : ""}
                    </span>
                    <span class="settings-help">{m.email}</span>
                  </span>
                  <Show when={isOwner() && m.role !== "owner"} fallback={<span class="role-tag">{ROLE_HELP[m.role]}</span>}>
                    <select
                      class="role-select"
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={busy()}
                      onChange={(e) => void act(() => api.setRole(props.sessionId, m.userId, e.currentTarget.value as GrantableRole))}
                    >
                      <option value="member" selected={m.role === "member"}>
                        Member
                      </option>
                      <option value="viewer" selected={m.role === "viewer"}>
                        Viewer
                      </option>
                    </select>
                    <button
                      class="icon-btn"
                      aria-label={`Remove ${m.email}`}
                      disabled={busy()}
                      onClick={() => void act(() => api.removeMember(props.sessionId, m.userId))}
                    >
                      <X size={16} />
                    </button>
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={isOwner()}>
          <form class="member-add" onSubmit={add} data-testid="member-add">
            <input
              type="email"
              placeholder="teammate@example.com"
              aria-label="Email to invite"
              autocapitalize="off"
              spellcheck={false}
              value={email()}
              onInput={(e) => setEmail(e.currentTarget.value)}
              data-testid="member-email"
            />
            <select aria-label="Role" value={role()} onChange={(e) => setRole(e.currentTarget.value as GrantableRole)} data-testid="member-role">
              <option value="member">Member</option>
              <option value="viewer">Viewer</option>
            </select>
            <button class="btn btn-sm btn-primary" type="submit" disabled={busy() || !email().trim()} data-testid="member-submit">
              Add
            </button>
          </form>
          <p class="settings-help">Members can send, queue and approve; viewers follow read-only.</p>
          <ShareLinks sessionId={props.sessionId} />
        </Show>
      </Suspense>
    </PopoverButton>
  );
}
