/// The console's style sheet and its one script, served from `/console/static/`: no build step,
/// a plain ES module.
enum ConsoleStatic {
    static let css = """
        :root{color-scheme:light dark;--line:#8884;--accent:#0a66c2;--bad:#b00020;--good:#1b7f3b}
        *{box-sizing:border-box}body{font:15px/1.5 system-ui,sans-serif;margin:0}
        a{color:var(--accent)}a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #0a66c288;outline-offset:1px}
        .skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:Canvas;padding:.3rem}
        header.top{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.5rem 1rem;border-bottom:1px solid var(--line)}
        header.top nav{display:flex;flex-wrap:wrap;gap:.2rem .9rem}.where{opacity:.7;font-size:.9em}
        .crumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.3rem;margin:.5rem 1rem;padding:0;font-size:.9em}
        .crumbs li+li:before{content:"›";margin-right:.3rem;opacity:.6}
        main{padding:0 1rem 2rem;max-width:80rem}main.narrow{max-width:30rem;margin:3rem auto}
        h1{font-size:1.5rem;margin:.6rem 0}h2{font-size:1.15rem;margin:1.4rem 0 .5rem}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
        .scroll{overflow-x:auto}code,.mono{font-family:ui-monospace,monospace;font-size:.9em;word-break:break-all}
        form.inline{display:inline}fieldset{border:1px solid var(--line);border-radius:6px;margin:.8rem 0;padding:.5rem .8rem}
        legend{font-weight:600}label{display:block;margin:.4rem 0 .1rem;font-size:.9em}
        .row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}.row>div{min-width:10rem;flex:1}
        input,select,textarea,button{font:inherit;padding:.35rem .5rem;max-width:100%}input,select,textarea{width:100%}
        button{cursor:pointer;border:1px solid var(--line);border-radius:5px;background:ButtonFace}
        button.danger{color:var(--bad)}.notice{padding:.5rem .8rem;border-left:4px solid var(--good);background:#1b7f3b14}
        summary{cursor:pointer;margin:.6rem 0;font-weight:600}.check input{width:auto}.notice.error{border-color:var(--bad);background:#b0002014}.hint{font-size:.85em;opacity:.8}
        .panes{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.pane{border:1px solid var(--line);border-radius:6px;padding:.6rem;min-width:0}
        .pane h2{margin-top:0}img.asset{max-width:16rem;max-height:12rem;display:block;border:1px solid var(--line)}
        .kind-fault td{background:#b0002010}.tag{font-size:.8em;padding:0 .3rem;border:1px solid var(--line);border-radius:4px}
        @media (max-width:700px){.panes{grid-template-columns:1fr}.row>div{min-width:100%}th,td{padding:.25rem}}
        """

    static let script = """
        // Stratus console: live panes (refreshed on push through the webcourier's event stream),
        // pane forms sent without leaving the page, files read into forms, and the timeline's new rows.
        const formToken = document.body.dataset.formToken;

        function bindPaneForms(pane) {
          for (const form of pane.querySelectorAll("form[data-pane-form]")) {
            form.addEventListener("submit", async (event) => {
              event.preventDefault();
              const response = await fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) });
              pane.querySelector("[data-pane-body]").innerHTML = await response.text();
              bindPaneForms(pane);
            });
          }
        }

        async function refresh(pane) {
          const response = await fetch(pane.dataset.src, { headers: { "Accept": "text/html" } });
          if (!response.ok) return;
          pane.querySelector("[data-pane-body]").innerHTML = await response.text();
          pane.dataset.refreshedAt = String(Date.now());
          bindPaneForms(pane);
        }

        // One refresh at a time per pane; a push during one asks for another after it.
        function schedule(pane) {
          if (pane.busy) { pane.again = true; return; }
          pane.busy = true;
          refresh(pane).finally(() => {
            pane.busy = false;
            if (pane.again) { pane.again = false; schedule(pane); }
          });
        }

        async function watch(pane) {
          const body = new URLSearchParams({ formToken, user: pane.dataset.user, database: pane.dataset.database });
          const response = await fetch(pane.dataset.watch, { method: "POST", body });
          if (response.status !== 200) {
            setInterval(() => schedule(pane), 2000);  // no push for this database: poll
            return;
          }
          const { events } = await response.json();
          const source = new EventSource(events);
          source.addEventListener("notification", () => schedule(pane));
          source.addEventListener("open", () => schedule(pane));  // (re)connected: catch up
          pane.dataset.live = "push";
        }

        for (const pane of document.querySelectorAll("[data-pane]")) {
          bindPaneForms(pane);
          watch(pane);
        }

        // A file chosen fills in the text field it names (the schema file: read here, sent as text).
        for (const input of document.querySelectorAll("input[type=file][data-fills]")) {
          input.addEventListener("change", () => {
            const file = input.files[0];
            if (!file) return;
            file.text()
              .then((text) => { document.getElementById(input.dataset.fills).value = text; })
              .catch(() => alert("The file could not be read."));
          });
        }

        // What cannot be undone asks first (the page's data-confirm says what will go).
        document.addEventListener("click", (event) => {
          const button = event.target.closest("[data-confirm]");
          if (button && !confirm(button.dataset.confirm)) event.preventDefault();
        });

        const timeline = document.querySelector("[data-timeline]");
        if (timeline) {
          const rows = timeline.querySelector("tbody");
          setInterval(async () => {
            const url = new URL(timeline.dataset.rows, location.href);
            url.searchParams.set("after", timeline.dataset.latest);
            const response = await fetch(url);
            if (!response.ok) return;
            timeline.dataset.latest = response.headers.get("X-Activity-Latest") || timeline.dataset.latest;
            const html = await response.text();
            if (html.trim()) rows.insertAdjacentHTML("afterbegin", html);
          }, 1000);
        }
        """
}
