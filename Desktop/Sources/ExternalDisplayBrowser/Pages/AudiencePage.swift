/// The audience page, served at `/` from the binary. It reports its viewport (and every resize), holds up to four
/// pictures (binary messages: frame number + PNG; the server sends the slides either side ahead), shows the one it
/// is told to show (`{"type":"show","frame":K}`, the newest wins) in device pixels, reports each frame it painted,
/// and reconnects (as a new display) when the connection drops.
///
/// Each held picture is drawn, as soon as it is decoded, into a canvas of its own (an opaque compositing layer):
/// a flip then only changes which canvas is visible — nothing is decoded, drawn or rasterised when the key is
/// pressed, which is what 50 pages sharing two cores cannot afford. `/?draw=flip` keeps the earlier design (one
/// canvas, the picture drawn into it at the flip) for the benchmark's side-by-side row.
///
/// `window.edkPaints` keeps the last 1,000 `[frame, epoch ms, paint count]` records for tests and benchmarks,
/// taken after the animation frame that shows the picture; `window.edkStats` counts pictures received and decoded,
/// shows, shows that had to wait for their picture to decode, shows of a picture the page did not hold, and ink
/// messages received.
///
/// Ink comes as text (`{"type":"ink","frame":K,"slide":[…],"clip":[…],"strokes":[…]}`, built by the presenter's
/// `BrowserInkLayer`) and is drawn on a canvas of its own above the pictures, in device pixels, only while picture
/// K is on screen; it is drawn again when the window is resized. A stroke is no new picture. `window.edkInkLog`
/// keeps the text of the last 100 ink messages (tests check what reached the page); `window.edkInkTimes` the last
/// 2,000 `[epoch ms, bytes, strokes, last point's x]` records, taken once a message is parsed and drawn on the ink
/// canvas (benchmarks time a stroke to it).
enum AudiencePage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>extdisplay</title>
    <style>
    html,body{margin:0;height:100%;background:#000;overflow:hidden}
    canvas{display:block;position:fixed;left:0;top:0;width:100vw;height:100vh;opacity:0;will-change:opacity}
    #ink{opacity:1;z-index:1;pointer-events:none;will-change:auto}
    #wait{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;z-index:2;
      color:#8a93a6;font:24px system-ui,sans-serif}
    </style></head>
    <body><div id="wait">Waiting for the presenter…</div>
    <script>
    "use strict";
    const drawOnFlip = new URLSearchParams(location.search).get("draw") === "flip";
    const wait = document.getElementById("wait");
    window.edkPaints = [];
    let socket = null, content = "placeholder", reported = "", paints = 0;
    // The newest ink message, and the picture on screen (null: none).
    let ink = null, onScreen = null;

    // Canvases: the one shown (null: black), and those of dropped pictures, kept for the next ones. A canvas
    // is shown by its opacity, a change the compositor makes without drawing anything. The first flips to a canvas
    // new to the compositor are slow (measured with 50 pages: 100–150 ms for each of the first three flips, 30–45
    // ms after), so the page makes its canvases at load, draws on each, and shows each on its own for a frame,
    // twice round, before it connects; pictures are then drawn into those.
    let visible = null;
    const spare = [];
    function newCanvas() { const made = document.createElement("canvas"); document.body.appendChild(made); return made; }
    function reveal(canvas) {
      if (visible === canvas) return;
      if (visible) visible.style.opacity = "0";
      if (canvas) canvas.style.opacity = "1";
      visible = canvas;
    }
    // Makes `count` canvases, draws on each and shows them all for a frame, then calls `then` (at once if
    // animation frames do not come, e.g. in a hidden tab).
    function warmUp(count, then) {
      const dpr = window.devicePixelRatio || 1, made = [];
      for (let i = 0; i < count; i++) {
        const canvas = newCanvas();
        canvas.width = Math.round(window.innerWidth * dpr);
        canvas.height = Math.round(window.innerHeight * dpr);
        canvas.getContext("2d", {alpha: false}).fillRect(0, 0, canvas.width, canvas.height);
        made.push(canvas);
      }
      let done = false;
      function finish() {
        if (done) return;
        done = true;
        reveal(null);
        spare.push(...made);
        then();
      }
      // Each shown on its own for a frame, twice round, as flips would.
      (function next(i) {
        if (done) return;
        if (i === 2 * made.length) { finish(); return; }
        reveal(made[i % made.length]);
        requestAnimationFrame(function () { next(i + 1); });
      })(0);
      setTimeout(finish, 1000);
    }
    function black() { reveal(null); onScreen = null; drawInk(); }
    const single = drawOnFlip ? newCanvas() : null, pen = single ? single.getContext("2d", {alpha: false}) : null;

    function reportViewport() {
      if (!socket || socket.readyState !== 1) return;
      const dpr = window.devicePixelRatio || 1, width = window.innerWidth, height = window.innerHeight;
      const key = width + "x" + height + "@" + dpr;
      if (key === reported) return;
      reported = key;
      if (single) {
        single.width = Math.round(width * dpr);
        single.height = Math.round(height * dpr);
        black();
      }
      socket.send(JSON.stringify({type: "viewport", width: width, height: height, dpr: dpr}));
    }

    // Pictures held, by frame number, least recently used first: the server keeps an exact mirror (same
    // capacity, same rule, same message order) and sends a picture only when it is not held here.
    const capacity = 4;
    let held = new Map(), shown = null, wanted = null;
    window.edkStats = {pictures: 0, decoded: 0, shows: 0, waited: 0, missing: 0, ink: 0};

    // The ink: the newest message, drawn over the picture it names while that picture is on screen.
    const inkCanvas = document.createElement("canvas");
    inkCanvas.id = "ink";
    document.body.appendChild(inkCanvas);
    window.edkInkLog = [];
    window.edkInkTimes = [];
    function drawInk() {
      const dpr = window.devicePixelRatio || 1;
      const width = Math.round(window.innerWidth * dpr), height = Math.round(window.innerHeight * dpr);
      if (inkCanvas.width !== width) inkCanvas.width = width;
      if (inkCanvas.height !== height) inkCanvas.height = height;
      const g = inkCanvas.getContext("2d");
      g.clearRect(0, 0, width, height);
      if (!ink || content !== "app" || onScreen === null || ink.frame !== onScreen) return;
      const s = ink.slide, c = ink.clip;
      if (!Array.isArray(s) || !Array.isArray(c) || !Array.isArray(ink.strokes)) return;
      const sx = s[0] * width, sy = s[1] * height, sw = s[2] * width, sh = s[3] * height;
      g.save();
      g.beginPath();
      g.rect(c[0] * width, c[1] * height, c[2] * width, c[3] * height);
      g.clip();
      g.lineCap = "round";
      g.lineJoin = "round";
      for (const stroke of ink.strokes) {
        const p = stroke.p;
        if (!Array.isArray(p) || p.length === 0) continue;
        g.strokeStyle = stroke.c;
        g.fillStyle = stroke.c;
        const at = function (q) { return [sx + q[0] * sw, sy + q[1] * sh, Math.max(1, q[2] * sh)]; };
        if (p.length === 1) {
          const [x, y, w] = at(p[0]);
          g.beginPath(); g.arc(x, y, w / 2, 0, 2 * Math.PI); g.fill();
          continue;
        }
        // A translucent stroke is one path (each pixel covered once); an opaque one follows the pressure
        // segment by segment.
        if (/ff$/i.test(stroke.c)) {
          for (let i = 1; i < p.length; i++) {
            const a = at(p[i - 1]), b = at(p[i]);
            g.lineWidth = Math.max(a[2], b[2]);
            g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(b[0], b[1]); g.stroke();
          }
        } else {
          g.lineWidth = Math.max.apply(null, p.map(function (q) { return at(q)[2]; }));
          g.beginPath();
          const first = at(p[0]);
          g.moveTo(first[0], first[1]);
          for (let i = 1; i < p.length; i++) { const q = at(p[i]); g.lineTo(q[0], q[1]); }
          g.stroke();
        }
      }
      g.restore();
    }

    // A picture that arrives while a flip is on its way to the screen is decoded a little after that flip has
    // been painted (unless a show needs it first): on a machine full of pages, decoding the next slide must
    // not take the cores the other pages are painting this one with.
    let flipping = false, resume = null, deferred = [];
    function settle() {
      flipping = false;
      const entries = deferred;
      deferred = [];
      for (const entry of entries) if (entry.start) entry.start();
    }

    function hold(frame, bytes) {
      const entry = {canvas: null, bitmap: null, ready: null, start: null};
      entry.ready = new Promise(function (resolve) {
        entry.start = function () {
          entry.start = null;
          createImageBitmap(new Blob([bytes], {type: "image/png"}),
                            {colorSpaceConversion: "none", premultiplyAlpha: "none"})
            .then(function (bitmap) {
              if (held.get(frame) !== entry) { bitmap.close(); resolve(false); return; }
              window.edkStats.decoded += 1;
              if (drawOnFlip) { entry.bitmap = bitmap; resolve(true); return; }
              const canvas = spare.pop() || newCanvas();
              // Setting a size, even the same one, would give the canvas new pixels (uploaded again when shown).
              if (canvas.width !== bitmap.width) canvas.width = bitmap.width;
              if (canvas.height !== bitmap.height) canvas.height = bitmap.height;
              canvas.getContext("2d", {alpha: false}).drawImage(bitmap, 0, 0);
              bitmap.close();
              entry.canvas = canvas;
              resolve(true);
            }, function () { resolve(false); });
        };
      });
      if (flipping) deferred.push(entry); else entry.start();
      if (held.has(frame)) drop(frame);
      held.set(frame, entry);
      for (const old of held.keys()) {
        if (held.size <= capacity) break;
        if (old !== shown) drop(old);
      }
    }

    function drop(frame) {
      const entry = held.get(frame);
      held.delete(frame);
      if (!entry) return;
      if (entry.bitmap) { entry.bitmap.close(); entry.bitmap = null; }
      if (entry.canvas) {
        if (visible === entry.canvas) black();
        spare.push(entry.canvas);
        entry.canvas = null;
      }
    }

    // The time after the frame that shows the picture: the animation frame's callbacks run before it is painted,
    // a message posted from one runs once that frame's rendering is done.
    function afterNextPaint(then) {
      requestAnimationFrame(function () {
        const channel = new MessageChannel();
        channel.port1.onmessage = function () { then(performance.timeOrigin + performance.now()); };
        channel.port2.postMessage(0);
      });
    }

    async function show(frame) {
      const entry = held.get(frame);
      if (!entry) { window.edkStats.missing += 1; return; }
      held.delete(frame);
      held.set(frame, entry);
      shown = frame;
      wanted = frame;
      window.edkStats.shows += 1;
      if (!(entry.canvas || entry.bitmap)) {
        window.edkStats.waited += 1;
        if (entry.start) entry.start();
        if (!(await entry.ready)) return;
      }
      if (wanted !== frame || content !== "app" || !(entry.canvas || entry.bitmap)) return;
      flipping = true;
      clearTimeout(resume);
      if (drawOnFlip) {
        pen.drawImage(entry.bitmap, 0, 0, single.width, single.height);
        reveal(single);
      } else {
        reveal(entry.canvas);
      }
      onScreen = frame;
      drawInk();
      afterNextPaint(function (at) {
        clearTimeout(resume);
        resume = setTimeout(settle, 150);
        window.edkPaints.push([frame, at, ++paints]);
        if (window.edkPaints.length > 1000) window.edkPaints.shift();
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({type: "painted", frame: frame, at: at}));
      });
    }

    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      socket.binaryType = "arraybuffer";
      socket.onopen = function () {
        for (const frame of Array.from(held.keys())) drop(frame);
        ink = null;
        shown = null;
        wanted = null;
        reported = "";
        reportViewport();
      };
      socket.onmessage = function (event) {
        if (typeof event.data === "string") {
          let message = null;
          try { message = JSON.parse(event.data); } catch (e) { return; }
          if (message.type === "show") { show(message.frame); return; }
          if (message.type === "ink") {
            window.edkStats.ink += 1;
            window.edkInkLog.push(event.data);
            if (window.edkInkLog.length > 100) window.edkInkLog.shift();
            ink = message;
            drawInk();
            const strokes = Array.isArray(message.strokes) ? message.strokes : [];
            const last = strokes.length && Array.isArray(strokes[strokes.length - 1].p) ? strokes[strokes.length - 1].p : [];
            window.edkInkTimes.push([performance.timeOrigin + performance.now(), event.data.length, strokes.length,
                                     last.length && Array.isArray(last[last.length - 1]) ? last[last.length - 1][0] : null]);
            if (window.edkInkTimes.length > 2000) window.edkInkTimes.shift();
            return;
          }
          content = message.type;
          if (content !== "app") black();
          wait.style.display = content === "placeholder" ? "flex" : "none";
          return;
        }
        window.edkStats.pictures += 1;
        hold(new DataView(event.data).getUint32(0), new Uint8Array(event.data, 4));
      };
      socket.onclose = function () {
        socket = null;
        content = "placeholder";
        wait.textContent = "Reconnecting…";
        wait.style.display = "flex";
        setTimeout(connect, 1000);
      };
    }

    window.addEventListener("resize", function () { requestAnimationFrame(function () { reportViewport(); drawInk(); }); });
    if (drawOnFlip) connect(); else warmUp(capacity + 1, connect);
    </script></body></html>
    """
}
