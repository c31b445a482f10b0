// The widget's only CSS, placed inside its shadow root. `:host { all: initial !important }` resets
// what the host element would inherit or receive from the page (important declarations of a
// shadow tree win over the page's important ones); sizes are in px, never rem, so the page's root
// font size does not reach in either. Nothing here can match an element of the page.
export const css = `
:host{all:initial!important;display:block!important;position:static!important;contain:none!important}
*,*::before,*::after{box-sizing:border-box}
.root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:14px;line-height:1.45;color:#0f172a;-webkit-font-smoothing:antialiased;text-align:left;direction:ltr}
button,input,textarea,select{font:inherit;color:inherit;margin:0;letter-spacing:normal;text-transform:none}
button{cursor:pointer}
button:disabled{cursor:default;opacity:.6}
a{color:#1d4ed8;text-decoration:underline}
p{margin:0}
ul{margin:0;padding:0;list-style:none}
[hidden]{display:none!important}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.sr{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;padding:0;background:#1d4ed8;color:#fff;display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(15,23,42,.3);transition:transform .15s}
.launcher:hover{background:#1e40af}
.launcher:focus-visible{outline-color:#0f172a}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.panel{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:380px;max-width:calc(100vw - 24px);height:600px;max-height:calc(100vh - 108px);background:#fff;border-radius:14px;box-shadow:0 12px 40px rgba(15,23,42,.28);display:flex;flex-direction:column;overflow:hidden;border:1px solid #e2e8f0}
@media (max-width:480px){.panel{right:12px;left:12px;width:auto;max-width:none;bottom:84px;height:calc(100vh - 100px);max-height:none}}
.head{background:#1d4ed8;color:#fff;padding:14px 16px;display:flex;flex-direction:column;gap:2px}
.head h2{margin:0;font-size:16px;font-weight:600;line-height:1.3}
.head .sub{font-size:12px;opacity:.95}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px;background:#fff}
.intro{color:#334155;background:#f1f5f9;border-radius:12px;padding:10px 12px;align-self:flex-start;max-width:85%}
.msg{display:flex;flex-direction:column;gap:6px;max-width:88%}
.msg.user{align-self:flex-end;align-items:flex-end}
.msg.assistant,.msg.team{align-self:flex-start}
.bubble{padding:9px 12px;border-radius:14px;white-space:normal;overflow-wrap:anywhere}
.bubble p+p{margin-top:8px}
.user .bubble{background:#1d4ed8;color:#fff;border-bottom-right-radius:4px}
.user .bubble a{color:#fff}
.assistant .bubble{background:#f1f5f9;border-bottom-left-radius:4px}
.team .bubble{background:#ecfdf5;border:1px solid #a7f3d0;border-bottom-left-radius:4px}
.author{font-size:12px;color:#475569;font-weight:600}
.notice{align-self:center;font-size:12px;color:#475569;text-align:center;padding:2px 8px}
.typing{display:inline-flex;gap:4px;padding:4px 0}
.typing i{width:6px;height:6px;border-radius:50%;background:#64748b;animation:pw-blink 1.2s infinite}
.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}
@keyframes pw-blink{0%,80%,100%{opacity:.25}40%{opacity:1}}
@media (prefers-reduced-motion:reduce){.typing i{animation:none}}
.sources{font-size:12px;color:#475569}
.sources .label{font-weight:600;display:block;margin-bottom:2px}
.sources li{margin:2px 0}
.links{display:flex;flex-wrap:wrap;gap:6px}
.linkbtn{display:inline-block;padding:7px 12px;border-radius:8px;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:500}
.linkbtn:hover{background:#1e40af}
.products{display:flex;flex-direction:column;gap:8px;width:100%}
.product{display:flex;gap:10px;border:1px solid #e2e8f0;border-radius:10px;padding:8px;background:#fff;align-items:center}
.product img{width:56px;height:56px;object-fit:cover;border-radius:6px;flex:none;background:#f1f5f9}
.product-body{display:flex;flex-direction:column;gap:2px;min-width:0}
.product-name{font-weight:600}
.price{color:#0f172a}
.price s{color:#475569;font-size:12px}
.stock{font-size:12px;color:#b91c1c}
.chips{display:flex;flex-wrap:wrap;gap:6px}
.chip{border:1px solid #1d4ed8;background:#fff;color:#1d4ed8;border-radius:999px;padding:5px 11px;font-size:13px;text-align:left}
.chip:hover:not(:disabled){background:#eff6ff}
.chip[aria-pressed=true]{background:#1d4ed8;color:#fff}
.card{border:1px solid #e2e8f0;border-radius:10px;padding:10px;display:flex;flex-direction:column;gap:8px;background:#fff;width:100%}
.card-title{font-weight:600}
.field{display:flex;flex-direction:column;gap:3px;font-size:13px;color:#334155}
.field input,.field textarea,.field select{border:1px solid #64748b;border-radius:8px;padding:7px 9px;background:#fff;color:#0f172a;width:100%}
.check{display:flex;gap:6px;align-items:center;font-size:13px}
.primary{background:#1d4ed8;color:#fff;border:0;border-radius:8px;padding:8px 14px;font-weight:600;align-self:flex-start}
.primary:hover:not(:disabled){background:#1e40af}
.form-error,.alert{color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:8px;padding:8px 10px;font-size:13px}
.form-done{color:#065f46;background:#ecfdf5;border-radius:8px;padding:8px 10px;font-size:13px}
.alert{margin:0 16px 8px}
.thumbs{display:flex;gap:4px;margin-top:2px}
.thumbs button{width:28px;height:28px;padding:4px;border:1px solid transparent;border-radius:6px;background:transparent;color:#64748b;cursor:pointer}
.thumbs button:hover,.thumbs button:focus-visible{border-color:#cbd5e1}
.thumbs button[aria-pressed="true"]{color:#1d4ed8;border-color:#1d4ed8;background:#eff6ff}
.thumbs svg{width:18px;height:18px;fill:currentColor}
.rating{display:flex;gap:6px;justify-content:center}
.rating button{width:36px;height:36px;border-radius:50%;border:1px solid #1d4ed8;background:#fff;color:#1d4ed8;font-weight:600}
.composer{display:flex;gap:8px;padding:10px 12px;border-top:1px solid #e2e8f0;align-items:flex-end;background:#fff}
.composer textarea{flex:1;resize:none;border:1px solid #64748b;border-radius:10px;padding:8px 10px;min-height:40px;max-height:120px;line-height:1.4;background:#fff;color:#0f172a}
.composer button{background:#1d4ed8;color:#fff;border:0;border-radius:10px;padding:0 16px;height:40px;font-weight:600}
.composer button:hover:not(:disabled){background:#1e40af}
.refusal,.state{padding:24px 20px;color:#334155;text-align:center;margin:auto 0}
.state .primary{align-self:center;margin-top:10px}
`;
