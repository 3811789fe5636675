/// The speaker's remote, served at `/remote?token=…` from the binary: a speaker's view for one hand on a phone
/// (360×740 CSS pixels and up). From the top: where the talk is and the clock, the pace cue (a shape and a word
/// beside the colour), the current and next slide as pictures (one picture from the server, current on top, next
/// below, drawn into two canvases; swiping the current one left or right goes on or back), the notes (scrollable,
/// A− and A+ change their size, remembered in the browser's localStorage), the blank, freeze and clock-pause
/// toggles, and at the bottom, under the thumb, big previous and next targets. Every button only names a command;
/// the presenter's core decides what it does. The screen is kept awake where the browser offers a wake lock
/// (taken again when the page is shown again); nothing is said where it does not.
enum RemotePage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>extdisplay remote</title>
    <style>
    *{box-sizing:border-box}
    html,body{height:100%}
    body{margin:0;background:#10131a;color:#e8ecf4;font:16px system-ui,sans-serif;display:flex;flex-direction:column;
      height:100vh;height:100dvh;overflow:hidden;-webkit-user-select:none;user-select:none}
    header{display:flex;justify-content:space-between;align-items:baseline;padding:8px 12px;background:#1b2130;font-size:18px}
    #timer{font-size:24px;font-weight:700;font-variant-numeric:tabular-nums}
    #pace{display:flex;justify-content:space-between;gap:8px;padding:6px 12px;font-weight:700;font-size:16px;background:#161b26}
    #pace[hidden]{display:none}
    #countdown{white-space:nowrap}
    #pace.ahead{color:#6cb6ff}#pace.onPace{color:#9be3a6}#pace.behind{color:#ffa24d}#pace.overtime{color:#ff6b6b}
    #status{color:#ff8080;padding:0 12px}
    .pictures{display:grid;grid-template-columns:3fr 2fr;gap:8px;align-items:start;padding:8px 12px 0}
    canvas{width:100%;background:#000;border-radius:6px;display:block}
    #now-picture{touch-action:pan-y}
    small{color:#8a93a6;display:block;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
    h2{font-size:12px;color:#8a93a6;margin:0 0 4px;text-transform:uppercase;letter-spacing:.05em}
    .notes-box{flex:1;min-height:0;display:flex;flex-direction:column;padding:8px 12px 0}
    .notes-head{display:flex;align-items:center;gap:8px}
    .notes-head h2{flex:1;margin:0}
    #notes{flex:1;min-height:0;overflow-y:auto;-webkit-overflow-scrolling:touch;white-space:pre-wrap;color:#ffd27a;
      font-size:20px;line-height:1.35;padding:4px 0;user-select:text;-webkit-user-select:text}
    button{font:inherit;border:0;border-radius:10px;color:#fff;background:#394256;min-height:48px;min-width:48px;
      touch-action:manipulation;cursor:pointer}
    button:active{filter:brightness(1.4)}
    button[aria-pressed="true"]{background:#8a5a00;outline:2px solid #ffd27a}
    .size{font-size:18px;font-weight:700;padding:0 12px}
    .toggles{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px;padding:8px 12px 0}
    .toggles button{font-size:16px;min-height:52px}
    .thumb{display:grid;grid-template-columns:1fr 2fr;gap:8px;padding:8px 12px calc(12px + env(safe-area-inset-bottom))}
    .thumb button{min-height:96px;font-size:24px;font-weight:700}
    #next{background:#2d6cdf}
    </style></head>
    <body>
    <header><span id="where">–</span><span id="timer">0:00</span></header>
    <div id="pace" hidden><span id="pace-line"></span><span id="countdown"></span></div>
    <div id="status" role="status"></div>
    <div class="pictures">
      <div><h2>Now</h2><canvas id="now-picture" width="640" height="360"></canvas></div>
      <div><h2>Next</h2><canvas id="next-picture" width="640" height="360"></canvas><small id="next-slide"></small></div>
    </div>
    <section class="notes-box">
      <div class="notes-head"><h2>Notes</h2>
        <button id="smaller" class="size" aria-label="Smaller notes">A−</button>
        <button id="larger" class="size" aria-label="Larger notes">A+</button></div>
      <div id="notes"></div>
    </section>
    <pre id="now" hidden></pre>
    <div class="toggles">
      <button id="blank" aria-pressed="false">Blank</button><button id="freeze" aria-pressed="false">Freeze</button><button id="pause" aria-pressed="false">Pause clock</button>
    </div>
    <div class="thumb"><button id="previous">◀ Back</button><button id="next">Next ▶</button></div>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const element = function (id) { return document.getElementById(id); };
    const show = function (id, text) {
      // Only a change is written: the notes keep their scroll position while the clock ticks.
      if (element(id).textContent !== text) element(id).textContent = text;
    };
    let socket = null;
    window.edkRemoteSent = [];

    // The server sends one PNG: the current slide on top, the next one below, each half of its height.
    function showPicture(bytes) {
      createImageBitmap(new Blob([bytes], {type: "image/png"})).then(function (bitmap) {
        const half = bitmap.height / 2;
        [["now-picture", 0], ["next-picture", half]].forEach(function (pair) {
          const canvas = element(pair[0]);
          canvas.width = bitmap.width;
          canvas.height = half;
          canvas.getContext("2d").drawImage(bitmap, 0, pair[1], bitmap.width, half, 0, 0, bitmap.width, half);
        });
        window.edkRemotePictures = (window.edkRemotePictures || 0) + 1;
      });
    }

    // The screen stays on where the browser offers a wake lock; it is let go when the page is hidden and taken
    // again when it is shown. Where there is none, or it is refused, nothing is said.
    let wakeLock = null;
    function keepAwake() {
      if (wakeLock || !navigator.wakeLock || document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        window.edkWakeLock = "held";
        lock.addEventListener("release", function () { wakeLock = null; });
      }, function () { window.edkWakeLock = "refused"; });
    }
    document.addEventListener("visibilitychange", keepAwake);

    // The commands are only named here; the presenter decides what each one does.
    function send(name) {
      keepAwake();
      if (socket && socket.readyState === 1) {
        socket.send(JSON.stringify({type: "command", name: name}));
        window.edkRemoteSent.push(name);
      }
    }

    function toggle(id, pressed, label) {
      element(id).setAttribute("aria-pressed", pressed ? "true" : "false");
      show(id, label);
    }

    function showState(s) {
      show("where", "Slide " + s.slide + " of " + s.slideCount + (s.blank ? " · blank" : "") + (s.frozen ? " · frozen" : ""));
      show("timer", s.timer + (s.timerPaused ? " ⏸ paused" : ""));
      show("now", s.title + (s.text ? "\\n" + s.text : ""));
      show("notes", s.notes || "(no notes)");
      show("next-slide", s.nextTitle ? s.nextTitle : "(last slide)");
      const pace = element("pace");
      pace.hidden = !s.pace && !s.countdown;
      pace.className = s.paceStanding || "";
      show("pace-line", s.pace || "");
      show("countdown", s.countdown || "");
      toggle("blank", s.blank, s.blank ? "Show" : "Blank");
      toggle("freeze", s.frozen, s.frozen ? "Unfreeze" : "Freeze");
      toggle("pause", s.timerPaused, s.timerPaused ? "Resume clock" : "Pause clock");
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
        showState(JSON.parse(event.data));
      };
      socket.onclose = function () { show("status", "Disconnected – retrying"); setTimeout(connect, 1000); };
    }

    // The notes' size: A− and A+ in steps of 2 px from 12 to 44, remembered in this browser.
    const sizeKey = "edk-remote-notes-px";
    let notesSize = 20;
    try {
      const saved = Number(localStorage.getItem(sizeKey));
      if (saved >= 12 && saved <= 44) notesSize = Math.round(saved);
    } catch (error) { /* no storage: the default size */ }
    function changeSize(step) {
      notesSize = Math.min(44, Math.max(12, notesSize + step));
      element("notes").style.fontSize = notesSize + "px";
      try { localStorage.setItem(sizeKey, String(notesSize)); } catch (error) { /* not remembered */ }
    }
    changeSize(0);

    // A tap acts when the finger is lifted on the button (sliding off cancels); the click that would follow it
    // is prevented, and a click (mouse, keyboard) acts too.
    function bind(id, action) {
      const button = element(id);
      button.addEventListener("click", action);
      button.addEventListener("touchend", function (event) {
        event.preventDefault();
        const touch = event.changedTouches[0], r = button.getBoundingClientRect();
        if (touch && touch.clientX >= r.left && touch.clientX <= r.right && touch.clientY >= r.top && touch.clientY <= r.bottom) action();
      });
    }
    for (const name of ["previous", "next", "blank", "freeze", "pause"]) bind(name, function () { send(name); });
    bind("smaller", function () { changeSize(-2); });
    bind("larger", function () { changeSize(2); });

    // A swipe on the current slide's picture: left goes on, right goes back (at least 40 px, mostly sideways).
    let swipe = null;
    const picture = element("now-picture");
    picture.addEventListener("touchstart", function (event) {
      swipe = event.touches.length === 1 ? {x: event.touches[0].clientX, y: event.touches[0].clientY} : null;
    }, {passive: true});
    picture.addEventListener("touchcancel", function () { swipe = null; });
    picture.addEventListener("touchend", function (event) {
      const touch = event.changedTouches[0];
      if (!swipe || !touch) return;
      const dx = touch.clientX - swipe.x, dy = touch.clientY - swipe.y;
      swipe = null;
      if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) send(dx < 0 ? "next" : "previous");
    });

    document.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === " ") send("next");
      if (event.key === "ArrowLeft") send("previous");
      if (event.key === "b") send("blank");
      if (event.key === "f") send("freeze");
    });
    keepAwake();
    connect();
    </script></body></html>
    """
}
