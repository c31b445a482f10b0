import { render } from "preact";
const host = document.createElement("div");
document.body.appendChild(host);
render(<button aria-label="Open chat">Chat</button>, host.attachShadow({ mode: "open" }));
