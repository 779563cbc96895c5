import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { createRoot } from "solid-js";
import { beforeEach, describe, expect, it } from "vitest";
import { makePushController } from "../push/push-controller";
import { fakePush } from "../push/testing-push";
import { EnableNotificationsPrompt, PROMPT_DISMISSED_KEY } from "./EnableNotificationsPrompt";
import { NotificationsMenu } from "./NotificationsMenu";
import { NotificationSettings } from "./NotificationSettings";

const controllerOf = (f: ReturnType<typeof fakePush>) => createRoot(() => makePushController(f));

describe("NotificationsMenu", () => {
  it("the bell opens the settings; Enable asks the browser, then lists the events to notify about", async () => {
    const f = fakePush();
    render(() => <NotificationsMenu controller={controllerOf(f)} />);
    expect(f.calls).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Notifications" }));
    const panel = screen.getByRole("dialog", { name: "Notifications" });
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("Off"));
    expect(panel).toHaveTextContent("even with Baton closed");
    fireEvent.click(screen.getByRole("button", { name: "Enable notifications" }));
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("On for this device"));
    expect(f.calls).toEqual(["requestPermission", "subscribe:KEY"]);
    const turnEnded = await screen.findByRole("checkbox", { name: "A turn ended" });
    expect(turnEnded).toBeChecked();
    fireEvent.click(turnEnded);
    await waitFor(() => expect(f.server.prefs.events.turn_ended).toBe(false));
    expect(turnEnded).not.toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: "Turn off on this device" }));
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("Off"));
    expect(f.server.subs.size).toBe(0);
  });

  it("says when the browser blocks notifications, and offers no button that cannot work", async () => {
    render(() => <NotificationSettings events controller={controllerOf(fakePush({ env: { permission: "denied" } }))} />);
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("Blocked by the browser"));
    expect(screen.queryByRole("button", { name: "Enable notifications" })).toBeNull();
  });

  it("on an iPhone tab explains adding to the Home Screen; an unsupported browser says so", async () => {
    const { unmount } = render(() => <NotificationSettings controller={controllerOf(fakePush({ env: { ios: true, pushManager: false } }))} />);
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("Install Baton first"));
    expect(screen.getByTestId("push-state")).toHaveTextContent("Add to Home Screen");
    expect(screen.queryByRole("button", { name: "Enable notifications" })).toBeNull();
    unmount();
    render(() => <NotificationSettings controller={controllerOf(fakePush({ env: { serviceWorker: false, pushManager: false } }))} />);
    await waitFor(() => expect(screen.getByTestId("push-state")).toHaveTextContent("Not supported"));
  });

  it("in a session's settings: mute this session", async () => {
    const f = fakePush({ env: { permission: "granted" }, subscribed: true });
    render(() => <NotificationSettings sessionId="s1" controller={controllerOf(f)} />);
    const mute = await screen.findByRole("checkbox", { name: /Mute this session/ });
    expect(mute).not.toBeChecked();
    fireEvent.click(mute);
    await waitFor(() => expect(f.server.muted.has("s1")).toBe(true));
    expect(mute).toBeChecked();
  });
});

describe("EnableNotificationsPrompt", () => {
  beforeEach(() => localStorage.clear());

  it("nothing on page load; after this person's send while the turn runs, an offer that enables", async () => {
    const f = fakePush();
    const c = controllerOf(f);
    const { unmount } = render(() => <EnableNotificationsPrompt sentHere={false} turnActive controller={c} />);
    await Promise.resolve();
    expect(screen.queryByTestId("push-prompt")).toBeNull();
    unmount();
    render(() => <EnableNotificationsPrompt sentHere turnActive controller={c} />);
    const prompt = await screen.findByRole("region", { name: "Notifications" });
    expect(prompt).toHaveTextContent("when this turn ends or needs your approval");
    fireEvent.click(screen.getByRole("button", { name: "Enable notifications" }));
    await waitFor(() => expect(screen.queryByTestId("push-prompt")).toBeNull());
    expect(c.status()).toBe("on");
  });

  it("Not now: gone, and not offered again on this browser", async () => {
    const c = controllerOf(fakePush());
    const { unmount } = render(() => <EnableNotificationsPrompt sentHere turnActive controller={c} />);
    fireEvent.click(await screen.findByRole("button", { name: "Not now" }));
    expect(screen.queryByTestId("push-prompt")).toBeNull();
    expect(localStorage.getItem(PROMPT_DISMISSED_KEY)).toBe("1");
    unmount();
    render(() => <EnableNotificationsPrompt sentHere turnActive controller={c} />);
    await Promise.resolve();
    expect(screen.queryByTestId("push-prompt")).toBeNull();
  });

  it("on an iPhone tab: explains installing instead of a button that cannot work", async () => {
    render(() => <EnableNotificationsPrompt sentHere turnActive controller={controllerOf(fakePush({ env: { ios: true, pushManager: false } }))} />);
    const prompt = await screen.findByTestId("push-prompt");
    expect(prompt).toHaveTextContent("Add to Home Screen");
    expect(screen.queryByRole("button", { name: "Enable notifications" })).toBeNull();
    expect(screen.getByRole("button", { name: "Got it" })).toBeInTheDocument();
  });
});
