import { Route, Router } from "@solidjs/router";
import { render } from "solid-js/web";
import "./styles.css";
import { SessionList } from "./views/SessionList";
import { SessionView } from "./views/SessionView";
import { Toasts } from "./views/Toasts";

render(
  () => (
    <>
      <Router>
        <Route path="/" component={SessionList} />
        <Route path="/s/:id" component={SessionView} />
      </Router>
      <Toasts />
    </>
  ),
  document.getElementById("root")!,
);
