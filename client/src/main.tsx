import { render } from "solid-js/web";
render(() => <h1>Baton</h1>, document.getElementById("root")!);
