/// The speaker's remote, served at `/remote?token=…` from the binary: a speaker's view for one hand on a phone
/// (360×740 CSS pixels and up). From the top: where the talk is and the clock, the pace cue (a shape and a word
/// beside the colour), the current and next slide as pictures (one picture from the server, current on top, next
/// below, drawn into two canvases; swiping the current one left or right goes on or back), the notes (scrollable,
/// A− and A+ change their size, remembered in the browser's localStorage), the blank, freeze and clock-pause
/// toggles and the draw toggle, and at the bottom, under the thumb, big previous and next targets. Every button only
/// names a command or a key; the presenter's core decides what it does.
///
/// Drawing: while "Draw" is on, a finger (or pen, or mouse) dragged on the current slide's picture draws a stroke
/// there — the swipe that turns the page is off, and the picture takes no pan or zoom (`touch-action: none`) — and
/// a row of tools appears (pen, highlighter, eraser, colour, undo: the core's ink keys by name). The points go
/// out in slide fractions, several a message and at most one message per animation frame
/// (`{"type":"ink","stroke":N,"down":true,"points":[x,y,pressure,…],"end":"up"}`, see ``BrowserRemoteInk``);
/// pressure is `PointerEvent.pressure` for a pen, and for a finger when the screen reports one (anything but the
/// 0.5 browsers give without a sensor), else 1. The page draws its stroke on its picture at once; the presenter's
/// next picture (after the stroke is finished) replaces it with the stroke as every display shows it. A second
/// finger cancels the stroke. A refused message comes back as `{"type":"error","message":…}`, shown in the status
/// line for a few seconds. `window.edkRemoteSaid` keeps what the status line said, `window.edkRemoteState` the last state, `window.edkInkSent` keeps the ink messages sent, `window.edkRemoteKeys` the keys, `window.edkRemoteErrors`
/// the errors (tests read them).
///
/// Zoom: two fingers on the current slide's picture pinch (zoom) and drag (pan) what the room sees; a double tap
/// (not while drawing) shows the whole slide again. The page works out the rectangle of the slide the fingers
/// hold (from the state's `drawArea` at the gesture's start: the slide point under the fingers' midpoint stays
/// under it, the spread of the fingers scales it, at most 4×) and sends it, at most one message an animation frame
/// and once more when the fingers lift (`{"type":"zoom","rect":[left,top,width,height]}`, slide fractions;
/// `{"type":"zoom","whole":true}`; see ``BrowserRemoteZoom``); the presenter's core decides the zoom, and the
/// next picture shows it. `window.edkZoomSent` keeps the zoom messages sent. The screen is kept awake where the browser offers a wake lock
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
    #now-picture.drawing{touch-action:none;outline:3px solid #ffd27a}
    .tools{display:grid;grid-template-columns:repeat(5,1fr);gap:6px;padding:8px 12px 0}
    .tools[hidden]{display:none}
    .tools button{font-size:15px;min-height:52px;padding:0 2px}
    #ink-colour-swatch{display:inline-block;width:18px;height:18px;border-radius:50%;border:2px solid #fff;vertical-align:middle}
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
    .toggles{display:grid;grid-template-columns:1fr 1fr 1fr 1fr;gap:8px;padding:8px 12px 0}
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
    <div class="tools" id="tools" hidden>
      <button id="tool-pen" aria-pressed="true">Pen</button><button id="tool-highlighter" aria-pressed="false">Marker</button><button id="tool-eraser" aria-pressed="false">Eraser</button><button id="tool-colour" aria-label="Next colour"><span id="ink-colour-swatch"></span></button><button id="tool-undo" aria-label="Undo">↶ Undo</button>
    </div>
    <section class="notes-box">
      <div class="notes-head"><h2>Notes</h2>
        <button id="smaller" class="size" aria-label="Smaller notes">A−</button>
        <button id="larger" class="size" aria-label="Larger notes">A+</button></div>
      <div id="notes"></div>
    </section>
    <pre id="now" hidden></pre>
    <div class="toggles">
      <button id="blank" aria-pressed="false">Blank</button><button id="freeze" aria-pressed="false">Freeze</button><button id="pause" aria-pressed="false">Pause clock</button><button id="draw" aria-pressed="false">✎ Draw</button>
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

    // A drawing tool, by the name of the presenter's key for it.
    window.edkRemoteKeys = [];
    function sendKey(name) {
      keepAwake();
      if (socket && socket.readyState === 1) {
        socket.send(JSON.stringify({type: "key", name: name}));
        window.edkRemoteKeys.push(name);
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
      remoteState = s;
      window.edkRemoteState = s;
      for (const tool of ["pen", "highlighter", "eraser"]) {
        element("tool-" + tool).setAttribute("aria-pressed", s.inkTool === tool ? "true" : "false");
      }
      if (s.inkColour) element("ink-colour-swatch").style.background = s.inkColour.slice(0, 7);
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
        const message = JSON.parse(event.data);
        if (message.type === "error") {
          // A message of ours was refused: say so, and drop the stroke under way (its next points would be too).
          window.edkRemoteErrors.push(message.message);
          say(message.message);
          pen = null;
          parts = [];
          return;
        }
        showState(message);
      };
      socket.onclose = function () {
        pen = null;
        parts = [];
        show("status", "Disconnected – retrying");
        setTimeout(connect, 1000);
      };
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
    for (const tool of ["pen", "highlighter", "eraser"]) bind("tool-" + tool, function () { sendKey(tool); });
    bind("tool-colour", function () { sendKey("ink-colour"); });
    bind("tool-undo", function () { sendKey("undo"); });
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
      if (drawing || !swipe || !touch) return;
      const dx = touch.clientX - swipe.x, dy = touch.clientY - swipe.y;
      swipe = null;
      if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) send(dx < 0 ? "next" : "previous");
    });

    // Drawing. The state says where the slide lies in the picture (drawArea: the whole slide, then the part
    // shown, as fractions of the picture) and the tool's colour and width; points go out in slide fractions.
    let remoteState = null, drawing = false, pen = null, strokeNumber = 0, parts = [], frameAsked = false;
    window.edkInkSent = [];
    window.edkRemoteErrors = [];
    // A drawing message for the speaker in the status line, gone after a few seconds (window.edkRemoteSaid keeps them).
    let sayTimer = null;
    window.edkRemoteSaid = [];
    function say(text) {
      show("status", text);
      window.edkRemoteSaid.push(text);
      clearTimeout(sayTimer);
      sayTimer = setTimeout(function () { if (element("status").textContent === text) show("status", ""); }, 4000);
    }
    bind("draw", function () {
      drawing = !drawing;
      // Draw turned off by another finger while one draws: the stroke is taken back.
      if (pen) queue({stroke: pen.stroke, points: [], end: "cancel"});
      pen = null;
      picture.classList.toggle("drawing", drawing);
      element("tools").hidden = !drawing;
      toggle("draw", drawing, drawing ? "✎ Drawing" : "✎ Draw");
    });
    // Several points a message, at most one message an animation frame: parts wait here until the next frame.
    function queue(part) {
      const last = parts[parts.length - 1];
      if (last && last.stroke === part.stroke && !last.end && !part.down && last.points.length + part.points.length <= 3 * 128) {
        last.points.push.apply(last.points, part.points);
        if (part.end) last.end = part.end;
      } else {
        parts.push(part);
      }
      if (!frameAsked) { frameAsked = true; requestAnimationFrame(flush); }
    }
    function flush() {
      frameAsked = false;
      const part = parts.shift();
      if (!part || !socket || socket.readyState !== 1) { parts = []; return; }
      const message = {type: "ink", stroke: part.stroke, points: part.points};
      if (part.down) message.down = true;
      if (part.end) message.end = part.end;
      const text = JSON.stringify(message);
      socket.send(text);
      window.edkInkSent.push(text);
      if (window.edkInkSent.length > 200) window.edkInkSent.shift();
      if (parts.length) { frameAsked = true; requestAnimationFrame(flush); }
    }
    const round = function (value, digits) { const f = Math.pow(10, digits); return Math.round(value * f) / f; };
    // Where a pointer event is: picture fractions, slide fractions (clamped onto the slide) and the pressure.
    function where(event) {
      const r = picture.getBoundingClientRect(), a = remoteState && remoteState.drawArea;
      if (!a || a.length !== 8 || r.width <= 0 || r.height <= 0) return null;
      const fx = (event.clientX - r.left) / r.width, fy = (event.clientY - r.top) / r.height;
      const clamp = function (v) { return Math.min(1, Math.max(0, v)); };
      let pressure = 1;
      if (event.pointerType === "pen" || (event.pointerType === "touch" && event.pressure > 0 && event.pressure !== 0.5)) {
        pressure = clamp(event.pressure);
      }
      const inside = fx >= a[4] && fx <= a[4] + a[6] && fy >= a[5] && fy <= a[5] + a[7];
      return {fx: fx, fy: fy, inside: inside, x: round(clamp((fx - a[0]) / a[2]), 4), y: round(clamp((fy - a[1]) / a[3]), 4),
              p: round(pressure, 2)};
    }
    // The page's own picture of the stroke, drawn at once; the presenter's next picture replaces it.
    function preview(from, to) {
      const a = remoteState && remoteState.drawArea;
      if (!a || a.length !== 8 || remoteState.inkTool === "eraser" || !remoteState.inkColour) return;
      const g = picture.getContext("2d");
      const width = (remoteState.inkWidth || 0.006) * a[3] * picture.height;
      const factor = remoteState.inkTool === "highlighter" ? 1 : 0.4 + 0.6 * to.p;
      g.save();
      g.beginPath();
      g.rect(a[4] * picture.width, a[5] * picture.height, a[6] * picture.width, a[7] * picture.height);
      g.clip();
      g.strokeStyle = remoteState.inkColour;
      g.lineCap = "round";
      g.lineWidth = Math.max(1, width * factor);
      g.beginPath();
      g.moveTo(from.fx * picture.width, from.fy * picture.height);
      g.lineTo(to.fx * picture.width, to.fy * picture.height);
      g.stroke();
      g.restore();
    }
    picture.addEventListener("pointerdown", function (event) {
      // A mouse's other buttons do not draw.
      if (!drawing || event.button > 0) return;
      event.preventDefault();
      if (pen) {
        // A second finger (a palm, a pinch): the stroke is taken back.
        queue({stroke: pen.stroke, points: [], end: "cancel"});
        pen = null;
        return;
      }
      const at = where(event);
      if (!at) { say("Drawing works while the room sees the current slide"); return; }
      if (!at.inside) return;
      try { picture.setPointerCapture(event.pointerId); } catch (error) { /* drawn without capture */ }
      strokeNumber += 1;
      pen = {stroke: strokeNumber, pointer: event.pointerId, last: at};
      queue({stroke: pen.stroke, down: true, points: [at.x, at.y, at.p]});
      preview(at, at);
    });
    picture.addEventListener("pointermove", function (event) {
      if (!drawing || !pen || event.pointerId !== pen.pointer) return;
      event.preventDefault();
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
      const points = [];
      for (const e of (events.length ? events : [event])) {
        const at = where(e);
        if (!at) continue;
        preview(pen.last, at);
        pen.last = at;
        points.push(at.x, at.y, at.p);
      }
      if (points.length) queue({stroke: pen.stroke, points: points});
    });
    function lift(event, end) {
      if (!pen || event.pointerId !== pen.pointer) return;
      queue({stroke: pen.stroke, points: [], end: end});
      pen = null;
    }
    picture.addEventListener("pointerup", function (event) { lift(event, "up"); });
    picture.addEventListener("pointercancel", function (event) { lift(event, "cancel"); });
    // While drawing, the browser neither scrolls nor zooms from the picture.
    picture.addEventListener("touchmove", function (event) { if (drawing) event.preventDefault(); }, {passive: false});
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible" && pen) { queue({stroke: pen.stroke, points: [], end: "cancel"}); pen = null; }
    });

    // Zoom: two fingers pinch and pan what the room sees; a double tap shows the whole slide.
    let pinch = null, lastTap = null, tapStart = null, zoomWanted = null, zoomAsked = false;
    window.edkZoomSent = [];
    function sendZoom(message) {
      if (!socket || socket.readyState !== 1) return;
      const text = JSON.stringify(message);
      socket.send(text);
      window.edkZoomSent.push(text);
      if (window.edkZoomSent.length > 200) window.edkZoomSent.shift();
    }
    function flushZoom() {
      zoomAsked = false;
      if (zoomWanted) { sendZoom(zoomWanted); zoomWanted = null; }
    }
    function wantZoom(message) {
      zoomWanted = message;
      if (!zoomAsked) { zoomAsked = true; requestAnimationFrame(flushZoom); }
    }
    // Two touches' midpoint (picture fractions) and spread (CSS pixels).
    function twoFingers(touches) {
      const r = picture.getBoundingClientRect();
      if (touches.length < 2 || r.width <= 0 || r.height <= 0) return null;
      const a = touches[0], b = touches[1];
      return {fx: ((a.clientX + b.clientX) / 2 - r.left) / r.width, fy: ((a.clientY + b.clientY) / 2 - r.top) / r.height,
              spread: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY)};
    }
    // The rectangle the fingers hold now: the slide point first under the midpoint stays under it, the spread scales.
    function pinchRect(now) {
      const a = pinch.area, k = pinch.start.spread > 0 ? now.spread / pinch.start.spread : 1;
      const side = Math.min(1, Math.max(0.25, pinch.side / (k > 0 ? k : 1)));
      const sx = (pinch.start.fx - a[0]) / a[2], sy = (pinch.start.fy - a[1]) / a[3];
      const ux = (now.fx - a[4]) / a[6], uy = (now.fy - a[5]) / a[7];
      const x = Math.min(1 - side, Math.max(0, sx - ux * side)), y = Math.min(1 - side, Math.max(0, sy - uy * side));
      if (side >= 0.9999) return {type: "zoom", whole: true};
      return {type: "zoom", rect: [round(x, 4), round(y, 4), round(side, 4), round(side, 4)]};
    }
    picture.addEventListener("touchstart", function (event) {
      if (event.touches.length === 1) {
        tapStart = {x: event.touches[0].clientX, y: event.touches[0].clientY, at: Date.now()};
      } else {
        tapStart = null;
      }
      if (event.touches.length !== 2) { pinch = null; return; }
      const a = remoteState && remoteState.drawArea, start = twoFingers(event.touches);
      if (!a || a.length !== 8 || a[2] <= 0 || a[3] <= 0 || a[6] <= 0 || a[7] <= 0 || !start) {
        say("Zoom works while the room sees the current slide");
        pinch = null;
        return;
      }
      pinch = {area: a.slice(), start: start, side: a[6] / a[2]};
    }, {passive: true});
    picture.addEventListener("touchmove", function (event) {
      if (!pinch || event.touches.length < 2) return;
      event.preventDefault();
      const now = twoFingers(event.touches);
      if (now) { pinch.last = pinchRect(now); wantZoom(pinch.last); }
    }, {passive: false});
    picture.addEventListener("touchend", function (event) {
      if (pinch && event.touches.length < 2) {
        // The rectangle the pinch ended on, once more (the last frame's message may not have gone yet).
        if (pinch.last) { zoomWanted = null; sendZoom(pinch.last); }
        pinch = null;
        lastTap = null;
        return;
      }
      const touch = event.changedTouches[0];
      if (drawing || !tapStart || !touch || event.touches.length > 0) return;
      const moved = Math.hypot(touch.clientX - tapStart.x, touch.clientY - tapStart.y), now = Date.now();
      if (moved > 12 || now - tapStart.at > 300) { lastTap = null; return; }
      if (lastTap && now - lastTap.at < 400 && Math.hypot(touch.clientX - lastTap.x, touch.clientY - lastTap.y) < 40) {
        lastTap = null;
        sendZoom({type: "zoom", whole: true});
      } else {
        lastTap = {x: touch.clientX, y: touch.clientY, at: now};
      }
    });
    picture.addEventListener("touchcancel", function () { pinch = null; tapStart = null; });

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
