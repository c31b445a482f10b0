import { render } from "preact";
render(<main><h1>Parley</h1></main>, document.getElementById("app")!);
