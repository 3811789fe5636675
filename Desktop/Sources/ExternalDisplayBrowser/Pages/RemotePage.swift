/// The speaker's remote, served at `/remote?token=…` from the binary: next, previous, blank and pause buttons
/// (and the arrow keys), the current slide and the next slide as pictures (one picture from the server, current
/// on top, next below, drawn into two canvases), the notes and the timer.
enum RemotePage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>extdisplay remote</title>
    <style>
    body{margin:0;background:#10131a;color:#e8ecf4;font:16px system-ui,sans-serif}
    header{display:flex;justify-content:space-between;padding:12px 16px;background:#1b2130;font-size:20px}
    main{padding:12px 16px}
    canvas{width:100%;background:#000;border-radius:6px;display:block}
    .pictures{display:grid;grid-template-columns:3fr 2fr;gap:10px;align-items:start}
    small{color:#8a93a6}
    .buttons{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:12px 0}
    button{font-size:22px;padding:18px;border:0;border-radius:8px;background:#2d6cdf;color:#fff}
    button.quiet{background:#394256}
    h2{font-size:14px;color:#8a93a6;margin:16px 0 4px;text-transform:uppercase}
    pre{white-space:pre-wrap;font:inherit;margin:0}
    #notes{font-size:18px;color:#ffd27a}
    #status{color:#ff8080}
    </style></head>
    <body>
    <header><span id="where">–</span><span id="timer">0:00</span></header>
    <main>
    <div id="status"></div>
    <div class="buttons">
      <button id="previous" class="quiet">◀ Previous</button><button id="next">Next ▶</button>
      <button id="blank" class="quiet">Blank</button><button id="pause" class="quiet">Pause timer</button>
    </div>
    <div class="pictures">
      <div><h2>Now</h2><canvas id="now-picture" width="640" height="360"></canvas></div>
      <div><h2>Next</h2><canvas id="next-picture" width="640" height="360"></canvas><small id="next-slide"></small></div>
    </div>
    <h2>Notes</h2><pre id="notes"></pre>
    <pre id="now" hidden></pre>
    </main>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const show = function (id, text) { document.getElementById(id).textContent = text; };
    let socket = null;

    // The server sends one PNG: the current slide on top, the next one below, each half of its height.
    function showPicture(bytes) {
      createImageBitmap(new Blob([bytes], {type: "image/png"})).then(function (bitmap) {
        const half = bitmap.height / 2;
        [["now-picture", 0], ["next-picture", half]].forEach(function (pair) {
          const canvas = document.getElementById(pair[0]);
          canvas.width = bitmap.width;
          canvas.height = half;
          canvas.getContext("2d").drawImage(bitmap, 0, pair[1], bitmap.width, half, 0, 0, bitmap.width, half);
        });
        window.edkRemotePictures = (window.edkRemotePictures || 0) + 1;
      });
    }

    function send(name) {
      if (socket && socket.readyState === 1) socket.send(JSON.stringify({type: "command", name: name}));
    }

    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/remote/ws?token=" + encodeURIComponent(token));
      socket.binaryType = "arraybuffer";
      socket.onopen = function () { show("status", ""); };
      socket.onmessage = function (event) {
        if (typeof event.data !== "string") {
          showPicture(new Uint8Array(event.data, 4));
          return;
        }
        const s = JSON.parse(event.data);
        show("where", "Slide " + s.slide + " of " + s.slideCount + (s.blank ? " – blank" : ""));
        show("timer", s.timer + (s.timerPaused ? " (paused)" : ""));
        show("now", s.title + (s.text ? "\\n" + s.text : ""));
        show("notes", s.notes || "");
        show("next-slide", s.nextTitle ? s.nextTitle : "(last slide)");
      };
      socket.onclose = function () { show("status", "Disconnected – retrying"); setTimeout(connect, 1000); };
    }

    for (const name of ["previous", "next", "blank", "pause"]) {
      document.getElementById(name).addEventListener("click", function () { send(name); });
    }
    document.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === " ") send("next");
      if (event.key === "ArrowLeft") send("previous");
      if (event.key === "b") send("blank");
    });
    connect();
    </script></body></html>
    """
}
